/**
 * /admin/faq/entries/new?section={id} and /admin/faq/entries/{id} (admins; issue 11): write or
 * edit a question — its section, the question, the answer in Markdown (rendered on /faq with the
 * posts' sanitising renderer), the anchor (made from the question when empty) and whether it is
 * published. A question or answer left empty is refused in Russian and nothing is saved.
 */
import { getInputProps, getSelectProps, getTextareaProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Form, Link } from "~/components/ui/link";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import type { Route } from "./+types/faq-entry";
import { messagesOf, resultFor } from "~/components/forms/action-data";
import { FormErrors } from "~/components/forms/form-errors";
import { SettingsForm, SettingsSection } from "~/components/settings/settings-form";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { Textarea } from "~/components/ui/textarea";
import { createFaqEntry, deleteFaqEntry, updateFaqEntry } from "~/domain/faq/entries.server";
import { getAdminFaqEntry, listFaqSectionChoices } from "~/domain/faq/faq.server";
import { EntryFormSchema, EntryPageActionSchema } from "~/domain/faq/schemas";
import { MAX_ANSWER_LENGTH, MAX_QUESTION_LENGTH } from "~/domain/faq/types";
import { requireUser } from "~/lib/auth.server";
import { pageData } from "~/lib/errors";
import { pageMeta } from "~/lib/meta";
import { runFormAction } from "~/routes/_shared/money-form.server";
import { formatCount } from "~/lib/format";

export const meta: Route.MetaFunction = ({ matches, data }) => pageMeta(matches, data?.entry ? "Изменить вопрос" : "Новый вопрос");

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request);
  return pageData(async () => {
    const sections = await listFaqSectionChoices(context.db, user);
    const entry = params.id ? await getAdminFaqEntry(context.db, user, Number(params.id)) : null;
    const section = Number(new URL(request.url).searchParams.get("section"));
    return { sections, entry, sectionId: entry?.sectionId ?? (sections.some((s) => s.id === section) ? section : sections[0]?.id) };
  });
}

export async function action({ request, params, context }: Route.ActionArgs) {
  return runFormAction(context, request, {
    schema: EntryPageActionSchema,
    async perform(actor, input) {
      if (input.intent === "entry-delete") {
        await deleteFaqEntry(context.db, actor, Number(params.id));
        return { toast: { title: "Вопрос удалён" }, redirectTo: "/admin/faq" };
      }
      const saved = params.id ? await updateFaqEntry(context.db, actor, Number(params.id), input) : await createFaqEntry(context.db, actor, input);
      return {
        toast: {
          title: params.id ? "Вопрос сохранён" : "Вопрос добавлен",
          description: saved.published ? `Опубликован: /faq#${saved.anchor}` : "Сохранён как черновик",
        },
        redirectTo: "/admin/faq",
      };
    },
  });
}

export default function AdminFaqEntryPage({ loaderData, actionData }: Route.ComponentProps) {
  const { sections, entry, sectionId } = loaderData;
  const [form, fields] = useForm({
    id: "entry-save",
    lastResult: resultFor(actionData, "entry-save"),
    defaultValue: {
      sectionId: sectionId ? String(sectionId) : "",
      question: entry?.question ?? "",
      answer: entry?.answer ?? "",
      anchor: entry?.anchor ?? "",
      published: entry?.published ? "on" : undefined,
    },
    constraint: getZodConstraint(EntryFormSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: EntryFormSchema }),
  });
  return (
    <div className="grid max-w-3xl gap-6">
      <Link to="/admin/faq" className="text-sm font-medium text-primary hover:underline">
        ← Все вопросы
      </Link>
      <h1 className="font-heading text-3xl font-extrabold">{entry ? "Изменить вопрос" : "Новый вопрос"}</h1>
      {sections.length === 0 ? (
        <p className="text-muted-foreground">
          Сначала{" "}
          <Link to="/admin/faq" className="text-primary hover:underline">
            добавьте раздел
          </Link>
          .
        </p>
      ) : (
        <SettingsSection id="entry" title="Вопрос и ответ" description="Ответ пишется в Markdown: **жирный**, списки, ссылки, таблицы.">
          <SettingsForm form={form} intent="entry-save" submitLabel={entry ? "Сохранить" : "Добавить вопрос"}>
            <Field label="Раздел" id={fields.sectionId.id} errors={fields.sectionId.errors}>
              <select
                {...getSelectProps(fields.sectionId)}
                className="h-9 rounded-md border border-input bg-background px-3 text-sm shadow-sm focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
              >
                {sections.map((section) => (
                  <option key={section.id} value={section.id}>
                    {section.title}
                  </option>
                ))}
              </select>
            </Field>
            <Field label="Вопрос" id={fields.question.id} errors={fields.question.errors} description={`До ${MAX_QUESTION_LENGTH} символов`}>
              <Input {...getInputProps(fields.question, { type: "text" })} />
            </Field>
            <Field label="Ответ" id={fields.answer.id} errors={fields.answer.errors} description={`Markdown, до ${formatCount(MAX_ANSWER_LENGTH)} символов`}>
              <Textarea {...getTextareaProps(fields.answer)} rows={12} className="font-mono text-sm" />
            </Field>
            <Field
              label="Якорь"
              id={fields.anchor.id}
              errors={fields.anchor.errors}
              description="Адрес вопроса: /faq#якорь. Пусто — составим из вопроса (у сохранённого вопроса останется прежний)"
            >
              <Input {...getInputProps(fields.anchor, { type: "text" })} placeholder="kak-vyvesti-depozit" />
            </Field>
            <label className="flex items-center gap-2 text-sm">
              <input {...getInputProps(fields.published, { type: "checkbox" })} className="size-4 accent-primary" />
              Опубликовать (иначе — черновик, виден только администраторам)
            </label>
          </SettingsForm>
        </SettingsSection>
      )}
      {entry ? (
        <Form method="post" className="grid gap-2">
          <AuthenticityTokenInput />
          <input type="hidden" name="intent" value="entry-delete" />
          <FormErrors errors={messagesOf(resultFor(actionData, "entry-delete"))} />
          <Button type="submit" variant="destructive" className="w-fit">
            Удалить вопрос
          </Button>
        </Form>
      ) : null}
    </div>
  );
}
