// Whether horu is ending because its output was closed (`horu dig ... | head`): the SIGTERM it
// sends itself then says so, not that someone sent one.
let closed = false;

export function markOutputClosed(): void {
  closed = true;
}

export function outputClosed(): boolean {
  return closed;
}
