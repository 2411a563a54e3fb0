/**
 * `--typecheck`: a script checked against the client's declarations before it runs.
 * PLACEHOLDER: the client work (helper "client") builds it; this is its signature.
 */
export interface TypeProblem {
  line: number;
  column: number;
  message: string;
}

export async function typecheckScript(_code: string, _declarations: string, _filename: string): Promise<TypeProblem[]> {
  throw new Error("typecheckScript is not built yet");
}
