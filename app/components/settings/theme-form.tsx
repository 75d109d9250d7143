/**
 * The colour theme form of /profile/settings (docs/product/interface.md#theme; issue 6 item 4): three colours
 * (primary, secondary, background) picked with `<input type="color">`, saved on the member and
 * applied by the root on every page; «Сбросить» removes them (the site's colours again).
 */
import { getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ThemeColors } from "~/db/schema";
import { messagesOf } from "~/components/forms/action-data";
import { FormErrors } from "~/components/forms/form-errors";
import { Field } from "~/components/ui/field";
import { ThemeFormSchema, tripleToHex } from "./schemas";
import { SettingsForm, SettingsSection } from "./settings-form";

/** The site's own colours (app/app.css, light scheme) as the pickers' starting values. */
const SITE_COLOURS = { primary: "#7c3bed", secondary: "#eceaf6", background: "#fafafd" };

const LABELS = { primary: "Основной цвет", secondary: "Дополнительный цвет", background: "Фон" } as const;

export function ThemeForms({
  theme,
  lastResult,
  resetResult,
}: {
  theme: ThemeColors | null;
  lastResult?: SubmissionResult<string[]>;
  resetResult?: SubmissionResult<string[]>;
}) {
  const [form, fields] = useForm({
    id: "theme",
    lastResult,
    defaultValue: theme
      ? { primary: tripleToHex(theme.primary), secondary: tripleToHex(theme.secondary), background: tripleToHex(theme.background) }
      : SITE_COLOURS,
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ThemeFormSchema }),
  });
  return (
    <SettingsSection
      id="theme"
      title="Цветовая тема"
      description={
        theme ? "Ваши цвета применяются на всех страницах сайта." : "Сейчас используются цвета сайта. Выберите свои — они применятся на всех страницах."
      }
    >
      <SettingsForm form={form} intent="theme" submitLabel="Сохранить тему">
        <div className="grid gap-4 sm:grid-cols-3">
          {(["primary", "secondary", "background"] as const).map((name) => (
            <Field key={name} label={LABELS[name]} id={fields[name].id} errors={fields[name].errors}>
              <input
                {...getInputProps(fields[name], { type: "color" })}
                className="h-10 w-full cursor-pointer rounded-md border border-input bg-background p-1"
              />
            </Field>
          ))}
        </div>
      </SettingsForm>
      {theme ? (
        <SettingsForm intent="theme-reset" submitLabel="Сбросить" submitVariant="outline">
          <FormErrors errors={messagesOf(resetResult)} />
        </SettingsForm>
      ) : null}
    </SettingsSection>
  );
}
