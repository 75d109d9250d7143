import { useNavigate } from "react-router";

import { Toast, ToastClose, ToastDescription, ToastProvider, ToastTitle, ToastViewport } from "~/components/ui/toast";
import { useToast } from "~/components/ui/use-toast";
import { cn } from "~/lib/utils";

/** Renders the toasts created with `toast()`. Must be rendered inside the router; app/root.tsx loads it lazily. */
export default function Toaster() {
  const { toasts, dismiss } = useToast();
  const navigate = useNavigate();

  return (
    <ToastProvider>
      {toasts.map(function ({ id, title, description, action, url, className, ...props }) {
        const go = () => {
          if (!url) return;
          dismiss(id);
          void navigate(url);
        };
        const fromControl = (target: EventTarget) => target instanceof Element && target.closest("button, a, [toast-close]") !== null;

        return (
          <Toast
            key={id}
            {...props}
            className={cn(url && "cursor-pointer", className)}
            onClick={(event) => {
              props.onClick?.(event);
              if (event.defaultPrevented || !url || fromControl(event.target)) return;
              go();
            }}
            onKeyDown={(event) => {
              props.onKeyDown?.(event);
              if (event.defaultPrevented || !url) return;
              if (event.key === "Enter" && event.target === event.currentTarget) {
                event.preventDefault();
                go();
              }
            }}
          >
            <div className="grid gap-1">
              {title ? <ToastTitle>{title}</ToastTitle> : null}
              {description ? <ToastDescription>{description}</ToastDescription> : null}
            </div>
            {action}
            <ToastClose />
          </Toast>
        );
      })}
      <ToastViewport />
    </ToastProvider>
  );
}
