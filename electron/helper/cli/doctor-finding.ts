// One line of `doctor`'s report: a fact, and when it is a problem, the command that fixes it.
export interface Finding {
  ok: boolean;
  text: string;
  fix?: string;
}
