export interface ScheduledJobTable {
  name: string;
  /** When the next run is due (ms since the epoch); the process that moves it on owns that run. */
  next_run_at: number;
  /** When the last run was claimed, and by which process (host/pid/random). */
  claimed_at: number | null;
  claimed_by: string | null;
  /** When the last claimed run ended; older than claimed_at while a run is under way, or if its process died. */
  finished_at: number | null;
}
