/**
 * Bounds the resizing work of the image endpoint per process (issue 13 item 6): at most
 * `concurrency` pictures are decoded at once and `queue` more wait; anything beyond is refused
 * at once, so a burst of expensive requests cannot pile up CPU work and memory without end.
 */
import { AppError } from "../errors";

export interface WorkGate {
  /**
   * Runs `task` when a slot is free and resolves with its result (or rejects with its error).
   * Throws AppError 503 `image_busy` when every slot and the whole queue are taken.
   */
  run<T>(task: () => Promise<T>): Promise<T>;
}

/** A gate of `concurrency` slots (≥ 1) and a queue of `queue` waiting tasks (≥ 0). */
export function createWorkGate(options: { concurrency: number; queue: number }): WorkGate {
  let active = 0;
  const waiting: (() => void)[] = [];
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else active--;
  };
  return {
    async run(task) {
      if (active >= options.concurrency) {
        if (waiting.length >= options.queue) {
          throw new AppError("image_busy", 503, "Сервер занят обработкой изображений, попробуйте чуть позже");
        }
        // The slot is handed over by release(), so `active` stays counted for this task.
        await new Promise<void>((resolve) => waiting.push(resolve));
      } else {
        active++;
      }
      try {
        return await task();
      } finally {
        release();
      }
    },
  };
}
