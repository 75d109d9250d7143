/**
 * /admin/faq (admins; issue 11): the FAQ's sections and questions with their order (up and
 * down), drafts and published questions, renaming and deleting sections, and links to add and
 * edit questions (/admin/faq/entries/…). Every form works without JavaScript.
 */
import { getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { useLocation } from "react-router";
import { Form, Link } from "~/components/ui/link";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { ArrowDown, ArrowUp, Eye, EyeOff, Pencil, Plus, Trash2 } from "lucide-react";
import type { Route } from "./+types/faq";
import { messagesOf, resultFor, type FormActionData } from "~/components/forms/action-data";
import { FormErrors } from "~/components/forms/form-errors";
import { SettingsForm, SettingsSection } from "~/components/settings/settings-form";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { moveFaqEntry, setFaqEntryPublished } from "~/domain/faq/entries.server";
import { getAdminFaq } from "~/domain/faq/faq.server";
import { createFaqSection, deleteFaqSection, moveFaqSection, renameFaqSection } from "~/domain/faq/sections.server";
import { AdminFaqActionSchema, CreateSectionFormSchema } from "~/domain/faq/schemas";
import type { AdminFaqSectionDto } from "~/domain/faq/types";
import { requireUser } from "~/lib/auth.server";
import { pageData } from "~/lib/errors";
import { pageMeta } from "~/lib/meta";
import { runFormAction } from "~/routes/_shared/money-form.server";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Вопросы и ответы: редактор");

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request);
  return pageData(async () => ({ sections: await getAdminFaq(context.db, user) }));
}

export async function action({ request, context }: Route.ActionArgs) {
  const { db } = context;
  return runFormAction(context, request, {
    schema: AdminFaqActionSchema,
    async perform(actor, input) {
      switch (input.intent) {
        case "section-create":
          await createFaqSection(db, actor, input);
          return { toast: { title: "Раздел добавлен", description: input.title } };
        case "section-rename":
          await renameFaqSection(db, actor, input.sectionId, input);
          return { toast: { title: "Раздел переименован" } };
        case "section-move":
          await moveFaqSection(db, actor, input.sectionId, input.direction);
          return { toast: { title: "Порядок разделов изменён" } };
        case "section-delete":
          await deleteFaqSection(db, actor, input.sectionId);
          return { toast: { title: "Раздел удалён" } };
        case "entry-move":
          await moveFaqEntry(db, actor, input.entryId, input.direction);
          return { toast: { title: "Порядок вопросов изменён" } };
        case "entry-publish":
          await setFaqEntryPublished(db, actor, input.entryId, input.published === "true");
          return { toast: { title: input.published === "true" ? "Вопрос опубликован" : "Вопрос скрыт", description: "Черновики видны только здесь" } };
      }
    },
  });
}

export default function AdminFaqPage({ loaderData, actionData }: Route.ComponentProps) {
  const { sections } = loaderData;
  const location = useLocation();
  const listErrors = ["section-rename", "section-move", "section-delete", "entry-move", "entry-publish"].flatMap((intent) =>
    messagesOf(resultFor(actionData, intent)),
  );
  return (
    <div className="grid gap-8" key={location.key}>
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h1 className="font-heading text-3xl font-extrabold">Вопросы и ответы: редактор</h1>
        <Link to="/faq" className="text-sm font-medium text-primary hover:underline">
          Открыть /faq →
        </Link>
      </div>
      <FormErrors errors={listErrors} />
      {sections.length === 0 ? <p className="text-muted-foreground">Разделов пока нет: добавьте первый.</p> : null}
      {sections.map((section, index) => (
        <SectionCard key={section.id} section={section} first={index === 0} last={index === sections.length - 1} />
      ))}
      <NewSectionForm actionData={actionData} />
    </div>
  );
}

function SectionCard({ section, first, last }: { section: AdminFaqSectionDto; first: boolean; last: boolean }) {
  return (
    <section
      className="grid gap-4 rounded-2xl border border-border bg-card p-5 shadow-sm"
      aria-label={`Раздел «${section.title}»`}
      data-testid="admin-faq-section"
    >
      <div className="flex flex-wrap items-center gap-2">
        <Form method="post" className="flex w-full min-w-0 items-center gap-2 sm:w-auto sm:flex-1">
          <AuthenticityTokenInput />
          <input type="hidden" name="intent" value="section-rename" />
          <input type="hidden" name="sectionId" value={section.id} />
          <label htmlFor={`section-${section.id}`} className="sr-only">
            Название раздела
          </label>
          <Input id={`section-${section.id}`} name="title" defaultValue={section.title} required maxLength={200} className="min-w-0 flex-1 font-semibold" />
          <Button type="submit" variant="outline" size="sm">
            Переименовать
          </Button>
        </Form>
        <div className="flex items-center gap-1">
          <ActionButton
            intent="section-move"
            idName="sectionId"
            id={section.id}
            extra={{ direction: "up" }}
            label={`Раздел выше: ${section.title}`}
            disabled={first}
          >
            <ArrowUp />
          </ActionButton>
          <ActionButton
            intent="section-move"
            idName="sectionId"
            id={section.id}
            extra={{ direction: "down" }}
            label={`Раздел ниже: ${section.title}`}
            disabled={last}
          >
            <ArrowDown />
          </ActionButton>
          <ActionButton intent="section-delete" idName="sectionId" id={section.id} label={`Удалить раздел «${section.title}» вместе с вопросами`}>
            <Trash2 className="text-destructive" />
          </ActionButton>
        </div>
      </div>
      <p className="-mt-2 text-xs text-muted-foreground">
        Якорь раздела: <code>/faq#{section.slug}</code>
      </p>
      {section.entries.length === 0 ? <p className="text-sm text-muted-foreground">В разделе нет вопросов.</p> : null}
      <ol className="grid gap-2">
        {section.entries.map((entry, index) => (
          <li key={entry.id} className="flex flex-wrap items-center gap-3 rounded-xl border border-border p-3" data-testid="admin-faq-entry">
            <div className="min-w-[14rem] flex-1">
              <p className="font-medium">{entry.question}</p>
              <p className="text-xs text-muted-foreground">
                {entry.published ? <Badge variant="success">опубликован</Badge> : <Badge variant="outline">черновик</Badge>} <code>#{entry.anchor}</code>
              </p>
            </div>
            <div className="flex items-center gap-1">
              <ActionButton
                intent="entry-move"
                idName="entryId"
                id={entry.id}
                extra={{ direction: "up" }}
                label={`Выше: ${entry.question}`}
                disabled={index === 0}
              >
                <ArrowUp />
              </ActionButton>
              <ActionButton
                intent="entry-move"
                idName="entryId"
                id={entry.id}
                extra={{ direction: "down" }}
                label={`Ниже: ${entry.question}`}
                disabled={index === section.entries.length - 1}
              >
                <ArrowDown />
              </ActionButton>
              <ActionButton
                intent="entry-publish"
                idName="entryId"
                id={entry.id}
                extra={{ published: entry.published ? "false" : "true" }}
                label={entry.published ? `Скрыть: ${entry.question}` : `Опубликовать: ${entry.question}`}
              >
                {entry.published ? <EyeOff /> : <Eye />}
              </ActionButton>
              <Button asChild variant="ghost" size="icon" aria-label={`Изменить: ${entry.question}`} title="Изменить">
                <Link to={`/admin/faq/entries/${entry.id}`}>
                  <Pencil />
                </Link>
              </Button>
            </div>
          </li>
        ))}
      </ol>
      <Button asChild variant="secondary" size="sm" className="w-fit">
        <Link to={`/admin/faq/entries/new?section=${section.id}`}>
          <Plus aria-hidden /> Добавить вопрос
        </Link>
      </Button>
    </section>
  );
}

function NewSectionForm({ actionData }: { actionData: FormActionData | undefined }) {
  const [form, fields] = useForm({
    id: "new-section",
    lastResult: resultFor(actionData, "section-create"),
    constraint: getZodConstraint(CreateSectionFormSchema),
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: CreateSectionFormSchema }),
  });
  return (
    <SettingsSection id="section-create" title="Новый раздел">
      <SettingsForm form={form} intent="section-create" submitLabel="Добавить раздел">
        <Field label="Название раздела" id={fields.title.id} errors={fields.title.errors}>
          <Input {...getInputProps(fields.title, { type: "text" })} />
        </Field>
      </SettingsForm>
    </SettingsSection>
  );
}

function ActionButton({
  intent,
  idName,
  id,
  extra = {},
  label,
  disabled,
  children,
}: {
  intent: string;
  idName: string;
  id: number;
  extra?: Record<string, string>;
  label: string;
  disabled?: boolean;
  children: React.ReactNode;
}) {
  return (
    <Form method="post">
      <AuthenticityTokenInput />
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name={idName} value={id} />
      {Object.entries(extra).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <Button type="submit" variant="ghost" size="icon" aria-label={label} title={label} disabled={disabled}>
        {children}
      </Button>
    </Form>
  );
}
