// CPU seconds from a line of /proc/<pid>/stat (Linux): the test run's accounting
// (file-cpu.ts, global-database.ts) and the benches' (bench/support/process-usage.ts) read it alike.

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

export interface ProcStat {
  command: string;
  /** The process's own user + system seconds. */
  own: number;
  /** User + system seconds of its children that ended and were waited for. */
  ended: number;
}

export function parseProcStat(stat: string): ProcStat {
  // The command sits in parentheses and may hold spaces; the fields after it are fixed.
  const command = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const [utime, stime, cutime, cstime] = [11, 12, 13, 14].map((field) => Number(fields[field]) / TICKS_PER_SECOND) as [
    number,
    number,
    number,
    number,
  ];
  return { command, own: utime + stime, ended: cutime + cstime };
}
