/** Reading a process's CPU time, for the benchmarks that report what the server itself spends. */
import { readFileSync } from "node:fs";

/** CPU time (user + system) process `pid` has used so far, ms (/proc/<pid>/stat, clock ticks of 10 ms). */
export function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  // Fields 14 and 15 of stat (utime, stime) are 12 and 13 after the command name.
  return (Number(fields[11]) + Number(fields[12])) * 10;
}
