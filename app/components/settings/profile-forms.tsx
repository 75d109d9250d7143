/**
 * The name, bio and avatar forms of /profile/settings (issue 6 item 4). The avatar form posts
 * multipart/form-data; the browser refuses a file over 10 MB before sending (with JavaScript),
 * the server again either way. The removal form is a separate button-only form.
 */
import { getInputProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { messagesOf } from "~/components/forms/action-data";
import { FormErrors } from "~/components/forms/form-errors";
import { Avatar } from "~/components/ui/avatar";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { Textarea } from "~/components/ui/textarea";
import { AvatarFormSchema, MAX_BIO_LENGTH, MAX_DISPLAY_NAME_LENGTH, ProfileFormSchema } from "./schemas";
import { SettingsForm, SettingsSection } from "./settings-form";

export function ProfileForm({ displayName, bio, lastResult }: { displayName: string | null; bio: string; lastResult?: SubmissionResult<string[]> }) {
  const [form, fields] = useForm({
    id: "profile",
    lastResult,
    defaultValue: { displayName: displayName ?? "", bio },
    constraint: getZodConstraint(ProfileFormSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ProfileFormSchema }),
  });
  return (
    <SettingsSection id="profile" title="Профиль" description="Имя и описание видны всем в вашем профиле.">
      <SettingsForm form={form} intent="profile" submitLabel="Сохранить">
        <Field
          label="Отображаемое имя"
          id={fields.displayName.id}
          errors={fields.displayName.errors}
          description={`Необязательно, до ${MAX_DISPLAY_NAME_LENGTH} символов`}
        >
          <Input {...getInputProps(fields.displayName, { type: "text" })} autoComplete="name" />
        </Field>
        <Field label="О себе" id={fields.bio.id} errors={fields.bio.errors} description={`До ${MAX_BIO_LENGTH} символов`}>
          <Textarea {...getTextareaProps(fields.bio)} rows={5} />
        </Field>
      </SettingsForm>
    </SettingsSection>
  );
}

export function AvatarForms({
  username,
  image,
  lastResult,
  removeResult,
}: {
  username: string;
  image: string | null;
  lastResult?: SubmissionResult<string[]>;
  removeResult?: SubmissionResult<string[]>;
}) {
  const [form, fields] = useForm({
    id: "avatar",
    lastResult,
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: AvatarFormSchema }),
  });
  return (
    <SettingsSection id="avatar" title="Аватар" description="JPEG, PNG, WebP, GIF или AVIF до 10 МБ. Картинка будет обрезана до квадрата.">
      <div className="flex flex-wrap items-center gap-4">
        <Avatar username={username} src={image} size="lg" />
        {image ? (
          <SettingsForm intent="avatar-remove" submitLabel="Удалить аватар" submitVariant="outline">
            <FormErrors errors={messagesOf(removeResult)} />
          </SettingsForm>
        ) : null}
      </div>
      <SettingsForm form={form} intent="avatar" submitLabel="Загрузить" multipart>
        <Field label="Новый аватар" id={fields.avatar.id} errors={fields.avatar.errors}>
          <Input name={fields.avatar.name} type="file" accept="image/jpeg,image/png,image/webp,image/gif,image/avif" required />
        </Field>
      </SettingsForm>
    </SettingsSection>
  );
}
