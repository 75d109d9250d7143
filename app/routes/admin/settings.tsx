/**
 * /admin/settings (admins only; docs/product/moderation.md#settings): registration open or closed,
 * the site rules (Markdown, shown on /faq) and the main-page background
 * (docs/product/routes.md#main-page-background). Three plain POST forms (no JavaScript needed);
 * each change is written with its audit entry, and bad input — rules over 20 000 characters, a
 * background that is not https:// or /…, an unknown value — is refused in Russian beside its
 * field with nothing saved.
 */
import { getFormProps, getInputProps, getTextareaProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { useLocation } from "react-router";
import { Form, Link } from "~/components/ui/link";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { z } from "zod";
import type { Route } from "./+types/settings";
import { AdminSection } from "~/components/admin/admin-ui";
import { resultFor, type FormActionData } from "~/components/forms/action-data";
import { FormErrors } from "~/components/forms/form-errors";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { Textarea } from "~/components/ui/textarea";
import { RegistrationFormSchema, SiteRulesFormSchema } from "~/domain/moderation/schemas";
import { BackgroundSchema } from "~/domain/settings/schemas";
import { getSiteSettings, setMainPageBackground, setRegistrationOpen, setSiteRules } from "~/domain/moderation/settings.server";
import { requireUser } from "~/lib/auth.server";
import { pageData } from "~/lib/errors";
import { formatDateTime } from "~/lib/format";
import { pageMeta } from "~/lib/meta";
import { runFormAction } from "~/routes/_shared/money-form.server";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Настройки сайта — администрирование");

const SettingsActionSchema = z.discriminatedUnion("intent", [
  RegistrationFormSchema.extend({ intent: z.literal("registration") }),
  SiteRulesFormSchema.extend({ intent: z.literal("rules") }),
  BackgroundSchema.extend({ intent: z.literal("background"), value: BackgroundSchema.shape.value.default("") }),
]);

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request);
  return pageData(async () => ({ settings: await getSiteSettings(context.db, user.id) }));
}

export async function action({ request, context }: Route.ActionArgs) {
  const { db } = context;
  return runFormAction(context, request, {
    schema: SettingsActionSchema,
    async perform(actor, input) {
      switch (input.intent) {
        case "registration": {
          const open = input.registrationOpen === "open";
          await setRegistrationOpen(db, actor.id, open, { reason: input.reason ?? null });
          return { toast: { title: open ? "Регистрация открыта" : "Регистрация закрыта" } };
        }
        case "rules":
          await setSiteRules(db, actor.id, input.rules);
          return { toast: { title: "Правила сайта сохранены", description: "Они показаны на странице «Вопросы и ответы»" } };
        case "background":
          await setMainPageBackground(db, actor, input.value);
          return { toast: { title: input.value ? "Фон главной обновлён" : "Фон главной убран" } };
      }
    },
  });
}

export default function AdminSettingsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { settings } = loaderData;
  const location = useLocation();
  return (
    <div className="grid gap-6" key={location.key}>
      <h1 className="font-heading text-3xl font-extrabold">Настройки сайта</h1>
      <AdminSection
        id="registration"
        title="Регистрация"
        description={
          settings.registrationOpen
            ? "Сейчас открыта: новые участники могут зарегистрироваться."
            : "Сейчас закрыта: новые участники не могут зарегистрироваться."
        }
      >
        <RegistrationForm open={settings.registrationOpen} actionData={actionData} />
      </AdminSection>
      <AdminSection
        id="rules"
        title="Правила сайта"
        description={
          <>
            Markdown. Показываются вверху страницы{" "}
            <Link to="/faq" className="text-primary hover:underline">
              «Вопросы и ответы»
            </Link>
            {settings.rules.updatedAt ? `; изменены ${formatDateTime(settings.rules.updatedAt)}` : ""}.
          </>
        }
      >
        <RulesForm markdown={settings.rules.markdown} actionData={actionData} />
        {settings.rules.html ? (
          <details className="rounded-xl border border-border p-3">
            <summary className="cursor-pointer text-sm font-medium">Как правила выглядят сейчас</summary>
            <div className="prose-post mt-3" dangerouslySetInnerHTML={{ __html: settings.rules.html }} />
          </details>
        ) : null}
      </AdminSection>
      <AdminSection
        id="background"
        title="Фон главной страницы"
        description="Картинка за заголовком главной: ссылка https://… или путь /images/…; пустое поле убирает фон."
      >
        <BackgroundForm value={settings.mainPageBackground ?? ""} actionData={actionData} />
      </AdminSection>
    </div>
  );
}

function RegistrationForm({ open, actionData }: { open: boolean; actionData: FormActionData | undefined }) {
  const [form, fields] = useForm({
    id: "registration",
    lastResult: resultFor(actionData, "registration"),
    constraint: getZodConstraint(RegistrationFormSchema),
    shouldValidate: "onSubmit",
    defaultValue: { registrationOpen: open ? "open" : "closed" },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: RegistrationFormSchema }),
  });
  return (
    <Form method="post" {...getFormProps(form)} className="grid gap-3" data-testid="registration-form">
      <AuthenticityTokenInput />
      <input type="hidden" name="intent" value="registration" />
      <FormErrors id={form.errorId} errors={form.errors} />
      <fieldset className="flex flex-wrap gap-4 text-sm">
        <legend className="sr-only">Регистрация</legend>
        <label className="flex items-center gap-2">
          <input type="radio" name={fields.registrationOpen.name} value="open" defaultChecked={open} /> Открыта
        </label>
        <label className="flex items-center gap-2">
          <input type="radio" name={fields.registrationOpen.name} value="closed" defaultChecked={!open} /> Закрыта
        </label>
      </fieldset>
      <Field label="Причина (необязательно, попадёт в журнал)" id={fields.reason.id} errors={fields.reason.errors}>
        <Input {...getInputProps(fields.reason, { type: "text" })} />
      </Field>
      <Button type="submit" className="w-fit">
        Сохранить
      </Button>
    </Form>
  );
}

function RulesForm({ markdown, actionData }: { markdown: string; actionData: FormActionData | undefined }) {
  const [form, fields] = useForm({
    id: "rules",
    lastResult: resultFor(actionData, "rules"),
    constraint: getZodConstraint(SiteRulesFormSchema),
    shouldValidate: "onSubmit",
    defaultValue: { rules: markdown },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: SiteRulesFormSchema }),
  });
  return (
    <Form method="post" {...getFormProps(form)} className="grid gap-3" data-testid="rules-form">
      <AuthenticityTokenInput />
      <input type="hidden" name="intent" value="rules" />
      <FormErrors id={form.errorId} errors={form.errors} />
      <Field label="Текст правил" id={fields.rules.id} errors={fields.rules.errors}>
        <Textarea {...getTextareaProps(fields.rules)} rows={12} className="font-mono text-sm" />
      </Field>
      <Button type="submit" className="w-fit">
        Сохранить правила
      </Button>
    </Form>
  );
}

function BackgroundForm({ value, actionData }: { value: string; actionData: FormActionData | undefined }) {
  const [form, fields] = useForm({
    id: "background",
    lastResult: resultFor(actionData, "background"),
    constraint: getZodConstraint(BackgroundSchema),
    shouldValidate: "onSubmit",
    defaultValue: { value },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: BackgroundSchema.extend({ value: BackgroundSchema.shape.value.default("") }) }),
  });
  return (
    <Form method="post" {...getFormProps(form)} className="grid gap-3" data-testid="background-form">
      <AuthenticityTokenInput />
      <input type="hidden" name="intent" value="background" />
      <FormErrors id={form.errorId} errors={form.errors} />
      <Field label="Ссылка на изображение" id={fields.value.id} errors={fields.value.errors}>
        <Input {...getInputProps(fields.value, { type: "text" })} placeholder="https://… или /images/…" />
      </Field>
      <Button type="submit" className="w-fit">
        Сохранить фон
      </Button>
    </Form>
  );
}
