// Fitted weights. Written by `horu engine fit-eval` and `horu engine fit-threat`
// (electron/engine/fit-*.ts); see docs/ENGINE.md for how they were fitted.
export const EVAL_WEIGHTS: number[] = [];
export const THREAT_WEIGHTS: number[] = [];
