export async function fitThreatCommand(_args: string[]): Promise<number> {
  throw new Error("not yet");
}
