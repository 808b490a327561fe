export async function fitEvalCommand(_args: string[]): Promise<number> {
  throw new Error("not yet");
}
