import { useSelector } from '@xstate/react';
import type { SsoMode } from '../../contract/sso.ts';
import type { AdminCollectionActor } from '../../machines/adminCollection.ts';
import type { CompanySso, SsoDraft } from '../../machines/adminCompanySso.machine.ts';
import { Button } from '../../widgets/Button.tsx';
import { Checkbox, CheckboxGroup } from '../../widgets/Checkbox.tsx';
import { ChoiceField } from '../../widgets/RadioGroup.tsx';
import { TextInput } from '../../widgets/TextInput.tsx';
import { DiscardQuestion, FormFields } from './AdminCollection.tsx';
import { AdminListFrame } from './AdminParts.tsx';

export type AdminCompanySsoActor = AdminCollectionActor<CompanySso, SsoDraft, null>;

export const SSO_MODE_OPTIONS: ReadonlyArray<{ value: SsoMode; label: string; description: string }> = [
  { value: 'optional', label: 'Optional', description: 'Employees may sign in with SSO or with a password.' },
  { value: 'enforced', label: 'Enforced', description: 'Employees at these domains sign in with SSO only: passwords and resets are refused.' },
];

/** A company's single sign-on (issue 29): its OpenID Connect provider, the domains it signs in, optional or enforced. */
export function AdminCompanySsoView({ sso: actor }: { sso: AdminCompanySsoActor }) {
  const form = useSelector(actor, (snapshot) => snapshot.context.form);
  const loadError = useSelector(actor, (snapshot) => snapshot.context.loadError);
  const notice = useSelector(actor, (snapshot) => snapshot.context.notice);
  const formError = useSelector(actor, (snapshot) => snapshot.context.formError);
  const fieldErrors = useSelector(actor, (snapshot) => snapshot.context.fieldErrors);
  const isBusy = useSelector(actor, (snapshot) => snapshot.hasTag('busy'));
  const isSaving = useSelector(actor, (snapshot) => snapshot.matches('saving'));
  const isAskingToDiscard = useSelector(actor, (snapshot) => snapshot.matches('confirmingDiscard'));
  const record = form?.record ?? null;
  const send = (event: { type: 'SAVE' | 'CANCEL' | 'DISCARD' | 'KEEP_EDITING' }) => actor.send(event);
  const change = (changes: Partial<SsoDraft>) => actor.send({ type: 'CHANGE', changes });

  return (
    <AdminListFrame heading={record ? `Single sign-on for ${record.company_name}` : 'Single sign-on'} isBusy={isBusy} loadError={loadError}
      onRetry={() => actor.send({ type: 'RETRY' })} notice={notice} isLoaded={form !== null}
      action={<Button variant="secondary" isDisabled={isSaving} onPress={() => send({ type: 'CANCEL' })}>Back to companies</Button>}>
      {form && record && (
        <FormFields saveLabel="Save single sign-on" isSaving={isSaving} formError={formError} send={send}>
          <p className="lc-field__description">
            Register this redirect URI with your identity provider (Okta, Entra ID or any OpenID Connect provider):{' '}
            <code>{record.redirect_uri}</code>
          </p>
          <TextInput label="Issuer" type="url" isRequired value={form.draft.issuer} onChange={(issuer) => change({ issuer })}
            errorMessage={fieldErrors.issuer} description="The provider's address, e.g. https://acme.okta.com or https://login.microsoftonline.com/<tenant>/v2.0" />
          <TextInput label="Client ID" isRequired value={form.draft.client_id} onChange={(clientId) => change({ client_id: clientId })}
            errorMessage={fieldErrors.client_id} />
          <TextInput label="Client secret" type="password" autoComplete="off" isRequired={!record.sso} value={form.draft.client_secret}
            onChange={(secret) => change({ client_secret: secret })} errorMessage={fieldErrors.client_secret}
            description={record.sso ? 'A secret is stored, encrypted, and never shown. Leave this empty to keep it.' : 'Stored encrypted, and never shown again.'} />
          <CheckboxGroup label="E-mail domains it signs in" value={form.draft.email_domains} errorMessage={fieldErrors.email_domains}
            onChange={(domains) => change({ email_domains: domains })}
            description={record.company_domains.length > 0 ? 'Among the company’s e-mail domains.' : 'The company has no e-mail domains yet: add them to the company first.'}>
            {record.company_domains.map((domain) => <Checkbox key={domain} value={domain}>{domain}</Checkbox>)}
          </CheckboxGroup>
          <ChoiceField label="Single sign-on is" options={SSO_MODE_OPTIONS} value={form.draft.mode}
            onChange={(mode) => change({ mode })} errorMessage={fieldErrors.mode} />
        </FormFields>
      )}
      <DiscardQuestion isOpen={isAskingToDiscard} send={send} unsaved="Your changes to this single sign-on have not been saved." />
    </AdminListFrame>
  );
}
