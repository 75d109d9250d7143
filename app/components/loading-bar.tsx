import * as React from "react";
import { useNavigation } from "react-router";

import { cn } from "~/lib/utils";

/** Only show the bar if a navigation takes longer than this. */
const THROTTLE_MS = 200;
/** Simulated progress creeps towards SIMULATED_MAX over this duration. */
const SIMULATED_DURATION_MS = 2000;
const SIMULATED_MAX = 90;
/** After finishing (100 %), keep the full bar for this long, then fade it out. */
const HIDE_DELAY_MS = 500;
/** Time for the fade-out before the bar is reset to 0 %. */
const RESET_DELAY_MS = 400;

type BarState = {
  visible: boolean;
  progress: number;
  /** CSS transition duration for the width, ms. */
  widthDuration: number;
};

const IDLE: BarState = { visible: false, progress: 0, widthDuration: 0 };

/**
 * Thin progress bar at the top of the page for React Router navigations.
 * Renders an invisible, inert element on the server and on first client render,
 * so there is no hydration mismatch.
 */
export function LoadingBar({ className }: { className?: string }) {
  const navigation = useNavigation();
  const loading = navigation.state !== "idle";
  const [bar, setBar] = React.useState<BarState>(IDLE);
  const visibleRef = React.useRef(false);
  const timers = React.useRef<Array<ReturnType<typeof setTimeout>>>([]);
  const frames = React.useRef<number[]>([]);

  visibleRef.current = bar.visible;

  const clearAll = React.useCallback(() => {
    timers.current.forEach(clearTimeout);
    timers.current = [];
    frames.current.forEach(cancelAnimationFrame);
    frames.current = [];
  }, []);

  React.useEffect(() => {
    if (loading) {
      clearAll();
      // A new navigation while the previous bar is fading out: start over.
      setBar(IDLE);
      timers.current.push(
        setTimeout(() => {
          setBar({ visible: true, progress: 0, widthDuration: 0 });
          // Two frames so the 0 % width is painted before transitioning to ~90 %.
          const outer = requestAnimationFrame(() => {
            const inner = requestAnimationFrame(() => {
              setBar({ visible: true, progress: SIMULATED_MAX, widthDuration: SIMULATED_DURATION_MS });
            });
            frames.current.push(inner);
          });
          frames.current.push(outer);
        }, THROTTLE_MS),
      );
      return;
    }

    // Finished (or never started).
    clearAll();
    if (!visibleRef.current) {
      setBar(IDLE);
      return;
    }
    setBar({ visible: true, progress: 100, widthDuration: 200 });
    timers.current.push(
      setTimeout(() => {
        setBar((b) => ({ ...b, visible: false }));
        timers.current.push(setTimeout(() => setBar(IDLE), RESET_DELAY_MS));
      }, HIDE_DELAY_MS),
    );
  }, [loading, clearAll]);

  React.useEffect(() => clearAll, [clearAll]);

  return (
    <div
      role="progressbar"
      aria-label="Загрузка"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.round(bar.progress)}
      aria-hidden={bar.visible ? undefined : true}
      data-state={bar.visible ? (bar.progress >= 100 ? "complete" : "loading") : "idle"}
      className={cn(
        "pointer-events-none fixed inset-x-0 top-0 z-[200] h-[3px] transition-opacity ease-out",
        bar.visible ? "opacity-100" : "opacity-0",
        className,
      )}
      style={{ transitionDuration: `${RESET_DELAY_MS}ms` }}
    >
      <div
        className="h-full bg-primary shadow-[0_0_8px_hsl(var(--primary)/0.7)] transition-[width] ease-out"
        style={{ width: `${bar.progress}%`, transitionDuration: `${bar.widthDuration}ms` }}
      />
    </div>
  );
}

export default LoadingBar;
