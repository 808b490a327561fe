// A KIF game record for the record pane's tests, the model's and the end-to-end one alike:
// one text, so the two test the same record.

/** A KIF with a branch at ply 3: 7g7f 3c3d 2g2f 8c8d, and 7g7f 3c3d 6g6f 8c8d; comments, one with an evaluation, on both lines. */
export const BRANCHED_KIF = `手合割：平手
先手：A
後手：B
手数----指手---------消費時間--
   1 ７六歩(77)
*角道を開ける
**解析 0 ○ 時間 00:01.0 深さ 20 評価値 45 読み筋 △３四歩
   2 ３四歩(33)
*#評価値=30
   3 ２六歩(27)
   4 ８四歩(83)

変化：3手
   3 ６六歩(67)
*振り飛車含み
   4 ８四歩(83)
`;

/** BRANCHED_KIF with a second branch, at ply 2: 7g7f 8c8d. */
export const TWICE_BRANCHED_KIF = `${BRANCHED_KIF}
変化：2手
   2 ８四歩(83)
`;
