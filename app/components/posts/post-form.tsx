import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { useRef } from "react";
import { useNavigation } from "react-router";
import { Form } from "~/components/ui/link";
import { useHydrated } from "remix-utils/use-hydrated";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { FormErrors } from "~/components/forms/form-errors";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { Textarea } from "~/components/ui/textarea";
import { CATEGORIES } from "~/domain/posts/categories";
import { BODY_MAX, PostInputSchema, TITLE_MAX } from "~/domain/posts/schemas";
import { MarkdownEditor } from "./markdown-editor";
import { PostDraft } from "./post-draft";
import { formatCount } from "~/lib/format";

export interface PostFormValues {
  title: string;
  body: string;
  categoryId: string;
  kind: "post" | "article";
}

const selectClass =
  "h-10 w-full rounded-md border border-input bg-background px-3 text-sm shadow-xs focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring";

/**
 * The post editor used by /posts/new, /posts/new/preview and /post/{id}/edit. It posts to
 * `action`; «Предпросмотр» posts the same fields to /posts/new/preview. Validation runs in
 * the browser with JavaScript and on the server always. With JavaScript the body gets the Markdown
 * toolbar, picture uploads and the live preview (MarkdownEditor), and the fields are kept as a
 * draft under `draftKey` (PostDraft: "new", or the post's id).
 */
export function PostForm({
  action,
  submitLabel,
  lastResult,
  defaultValue,
  withPreview,
  draftKey,
}: {
  action: string;
  submitLabel: string;
  lastResult?: SubmissionResult<string[]> | null;
  defaultValue?: Partial<PostFormValues>;
  withPreview?: boolean;
  draftKey: string;
}) {
  const formRef = useRef<HTMLFormElement>(null);
  const hydrated = useHydrated();
  const bodyRef = useRef<HTMLTextAreaElement>(null);
  const navigation = useNavigation();
  const submitting = navigation.state === "submitting" && navigation.formAction === action;
  const [form, fields] = useForm({
    lastResult,
    defaultValue,
    constraint: getZodConstraint(PostInputSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: PostInputSchema }),
  });
  return (
    <Form ref={formRef} method="post" action={action} encType="multipart/form-data" className="grid gap-5" {...getFormProps(form)}>
      <AuthenticityTokenInput />
      <PostDraft formRef={formRef} draftKey={draftKey} action={action} />
      <FormErrors id={form.errorId} errors={form.errors} />
      <Field label="Заголовок" id={fields.title.id} errors={fields.title.errors} description={`От 3 до ${TITLE_MAX} символов.`}>
        <Input {...getInputProps(fields.title, { type: "text" })} placeholder="Например: Продам аккаунт Steam с 120 играми" />
      </Field>
      <div className="grid gap-5 sm:grid-cols-2">
        <Field label="Категория" id={fields.categoryId.id} errors={fields.categoryId.errors}>
          <select {...getSelectProps(fields.categoryId)} className={selectClass}>
            <option value="">Выберите категорию</option>
            {CATEGORIES.map((category) => (
              <option key={category.id} value={category.id}>
                {category.name}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Тип публикации" id={fields.kind.id} errors={fields.kind.errors}>
          <select {...getSelectProps(fields.kind)} className={selectClass}>
            <option value="post">Пост</option>
            <option value="article">Статья</option>
          </select>
        </Field>
      </div>
      <Field
        label="Текст"
        id={fields.body.id}
        errors={fields.body.errors}
        description={`Поддерживается Markdown: **жирный**, *курсив*, ## заголовки, списки, ссылки. До ${formatCount(BODY_MAX)} символов.`}
      >
        {(control) => (
          <MarkdownEditor textareaRef={bodyRef}>
            <Textarea
              ref={bodyRef}
              {...getTextareaProps(fields.body)}
              aria-describedby={control["aria-describedby"]}
              rows={16}
              className="min-h-80 font-mono text-sm lg:h-full lg:max-h-[34rem]"
              // Pasting or dropping a picture needs JavaScript (MarkdownEditor): the hint offers it only then.
              placeholder={hydrated ? "Расскажите подробнее… Изображение можно вставить из буфера или перетащить сюда." : "Расскажите подробнее…"}
            />
          </MarkdownEditor>
        )}
      </Field>
      {hydrated ? null : (
        // Without JavaScript pictures come through this field, uploaded on publishing (withAttachedImage); with it, the toolbar uploads them.
        <Field
          label="Изображение"
          id={`${form.id}-image`}
          errors={form.allErrors.image}
          description="Необязательно. JPEG, PNG, WebP, GIF или AVIF до 10 МБ — добавится в конец текста при публикации."
        >
          <input type="file" name="image" accept="image/jpeg,image/png,image/webp,image/gif,image/avif" className="min-h-11 text-sm" />
        </Field>
      )}
      <div className="flex flex-wrap gap-3">
        <Button type="submit" size="lg" disabled={submitting}>
          {submitting ? "Сохраняем…" : submitLabel}
        </Button>
        {withPreview ? (
          <Button type="submit" size="lg" variant="outline" formAction="/posts/new/preview" formNoValidate>
            Предпросмотр
          </Button>
        ) : null}
      </div>
    </Form>
  );
}
