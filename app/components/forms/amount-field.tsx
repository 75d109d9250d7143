import { getInputProps, type FieldMetadata } from "@conform-to/react";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";

/**
 * A rouble amount field (issue 5 item 7: amounts are typed in roubles, «1 234,50», and become
 * kopecks in the form's schema), with the ₽ sign beside it, its help text and errors.
 */
export function AmountField({
  field,
  label,
  description,
  placeholder = "1 234,50",
}: {
  field: FieldMetadata<unknown>;
  label: string;
  description?: React.ReactNode;
  placeholder?: string;
}) {
  return (
    <Field label={label} id={field.id} errors={field.errors} description={description}>
      {(control) => (
        <div className="flex items-center gap-2">
          <Input
            {...getInputProps(field, { type: "text" })}
            {...control}
            inputMode="decimal"
            autoComplete="off"
            placeholder={placeholder}
            className="max-w-48"
          />
          <span aria-hidden className="text-muted-foreground">
            ₽
          </span>
        </div>
      )}
    </Field>
  );
}
