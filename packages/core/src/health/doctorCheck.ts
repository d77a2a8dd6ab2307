/** One finding of `gflow doctor`. */
export type Severity = 'ok' | 'info' | 'warn' | 'fail';

/** One check of `doctor` (the operation behind `gflow doctor`): what was checked, its severity, and what to do about it. */
export interface DoctorCheck {
  readonly check: string;
  readonly severity: Severity;
  readonly detail: string;
  /** The one command (or step) that fixes the finding. */
  readonly remediation?: string;
  /** The rows or profiles it concerns (at most FINDING_IDS_CAP), and how many there are. */
  readonly ids?: string[];
  readonly count?: number;
}
