import * as React from "react";

import { cn } from "~/lib/utils";
import { Label } from "~/components/ui/label";

/** Props that connect a form control to its label, help text and errors. */
export type FieldControlProps = {
  id: string;
  "aria-invalid": true | undefined;
  "aria-describedby": string | undefined;
};

export type FieldProps = {
  label: string;
  /** The control's id; the label points at it, errors get `${id}-error`, help text `${id}-description`. */
  id: string;
  errors?: (string | null | undefined)[] | null;
  /** Optional help text shown under the label. */
  description?: React.ReactNode;
  className?: string;
  labelClassName?: string;
  /**
   * The control. A single element (e.g. `<Input name="title" />`) receives `id`, `aria-invalid`
   * and `aria-describedby` automatically (its own props win). For composite markup, pass a
   * function that receives those props.
   */
  children: React.ReactNode | ((controlProps: FieldControlProps) => React.ReactNode);
};

export function Field({ label, id, errors, description, className, labelClassName, children }: FieldProps) {
  const errorList = (errors ?? []).filter((e): e is string => Boolean(e));
  const errorId = `${id}-error`;
  const descriptionId = `${id}-description`;
  const hasErrors = errorList.length > 0;
  const describedBy = [description ? descriptionId : null, hasErrors ? errorId : null].filter(Boolean).join(" ") || undefined;

  const controlProps: FieldControlProps = {
    id,
    "aria-invalid": hasErrors ? true : undefined,
    "aria-describedby": describedBy,
  };

  let control: React.ReactNode;
  if (typeof children === "function") {
    control = children(controlProps);
  } else if (React.isValidElement<Record<string, unknown>>(children)) {
    const own = children.props;
    control =
      own.id === undefined || own.id === id
        ? React.cloneElement(children, {
            id,
            "aria-invalid": own["aria-invalid"] ?? controlProps["aria-invalid"],
            "aria-describedby": own["aria-describedby"] ?? describedBy,
          })
        : children;
  } else {
    control = children;
  }

  return (
    <div data-slot="field" className={cn("grid gap-2", className)}>
      <Label htmlFor={id} className={cn(hasErrors && "text-destructive", labelClassName)}>
        {label}
      </Label>
      {description ? (
        <p id={descriptionId} className="-mt-1 text-xs text-muted-foreground">
          {description}
        </p>
      ) : null}
      {control}
      <FieldErrors id={errorId} errors={errorList} />
    </div>
  );
}

/** A list of validation messages, rendered only when there are any. */
export function FieldErrors({ id, errors, className }: { id?: string; errors?: (string | null | undefined)[] | null; className?: string }) {
  const list = (errors ?? []).filter((e): e is string => Boolean(e));
  if (list.length === 0) return null;
  return (
    <ul id={id} className={cn("flex flex-col gap-1 text-sm text-destructive", className)}>
      {list.map((error, i) => (
        <li key={`${i}-${error}`}>{error}</li>
      ))}
    </ul>
  );
}
