/** Reading a process's CPU time, or a process tree's, for the benchmarks that report what the server itself spends. */
import { readFileSync } from "node:fs";

/** CPU time (user + system) process `pid` has used so far, ms (/proc/<pid>/stat, clock ticks of 10 ms). */
export function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  // Fields 14 and 15 of stat (utime, stime) are 12 and 13 after the command name.
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** `pid` and every process it started, recursively (/proc/<pid>/task/<pid>/children); none of an ended one. */
export function processTree(pid: number): number[] {
  let children: number[] = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    // The process ended meanwhile.
  }
  return [pid, ...children.flatMap(processTree)];
}

/** cpuMs summed over `pids` (a processTree taken before the run), ms. */
export function treeCpuMs(pids: number[]): number {
  return pids.reduce((sum, pid) => sum + cpuMs(pid), 0);
}
