import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { SCIM_BASE_PATH, type ScimToken } from '../../contract/scim.ts';
import type { ScimTokenChoices, ScimTokenDraft, adminScimTokensMachine } from '../../machines/adminScimTokens.machine.ts';
import { Button } from '../../widgets/Button.tsx';
import { Select } from '../../widgets/Select.tsx';
import { StatusBadge } from '../../widgets/StatusBadge.tsx';
import { Cell } from '../../widgets/Table.tsx';
import { ActionsCell, AdminTable, ChangeConfirmation, CollectionForm, CollectionFrame } from './AdminCollection.tsx';
import './adminScim.css';

export type AdminScimTokensActor = ActorRefFrom<typeof adminScimTokensMachine>;

const dateOf = (at: string | null, never = 'Never') => (at ? new Date(at).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' }) : never);

/** The address a directory is given, on this server. */
export const scimEndpoint = () => `${window.location.origin}${SCIM_BASE_PATH}`;

/**
 * SCIM tokens (issue 29): which company's directory may provision through /scim/v2, each token's prefix and use,
 * rotation and revocation after a question. A new secret is shown once, in the screen's notice.
 */
export function AdminScimTokensView({ tokens: actor }: { tokens: AdminScimTokensActor }) {
  return (
    <CollectionFrame actor={actor} heading="SCIM provisioning" newLabel="New SCIM token">
      {(tokens) => (
        <>
          <p className="lc-admin-hint">
            A company's directory (Okta, Entra ID) creates and turns off its employees at <code>{scimEndpoint()}</code> with
            the company's token, sent as a bearer token.
          </p>
          <TokenTable tokens={tokens} actor={actor} />
          <TokenForm actor={actor} />
          <ChangeConfirmation actor={actor} ask={(token, change) =>
            change.field === 'rotate'
              ? {
                  title: `Rotate the SCIM token of ${token.company_name}?`,
                  confirmLabel: 'Rotate',
                  text: <p>The token the directory holds stops working at once; paste the new one into the directory.</p>,
                }
              : {
                  title: `Revoke the SCIM token of ${token.company_name}?`,
                  confirmLabel: 'Revoke',
                  text: <p>The directory can no longer provision {token.company_name}'s employees. A revoked token cannot be used again.</p>,
                }
          } />
        </>
      )}
    </CollectionFrame>
  );
}

function TokenTable({ tokens, actor }: { tokens: ScimToken[]; actor: AdminScimTokensActor }) {
  return (
    <AdminTable aria-label="SCIM tokens" columns={['Company', 'Token', 'Created', 'Last used', 'Status']} items={tokens} empty="No SCIM tokens yet. Make one for a company whose directory provisions its employees.">
      {(token) => (
        <>
          <Cell>
            <span className="lc-admin-table__name">{token.company_name}</span>
          </Cell>
          <Cell>
            <code aria-label={`Starts with ${token.prefix}`}>{token.prefix}…</code>
          </Cell>
          <Cell>{dateOf(token.rotated_at ?? token.created_at)}</Cell>
          <Cell>{dateOf(token.last_used_at)}</Cell>
          <Cell>
            {token.revoked_at === null ? (
              <StatusBadge tone="success">Active</StatusBadge>
            ) : (
              <StatusBadge tone="neutral">Revoked {dateOf(token.revoked_at)}</StatusBadge>
            )}
          </Cell>
          <ActionsCell>
            {token.revoked_at === null && (
              <>
                <Button variant="tertiary" aria-label={`Rotate the token of ${token.company_name}`}
                  onPress={() => actor.send({ type: 'SET', itemId: token.id, setting: { field: 'rotate', value: true } })}>
                  Rotate
                </Button>
                <Button variant="tertiary" aria-label={`Revoke the token of ${token.company_name}`}
                  onPress={() => actor.send({ type: 'SET', itemId: token.id, setting: { field: 'active', value: false } })}>
                  Revoke
                </Button>
              </>
            )}
          </ActionsCell>
        </>
      )}
    </AdminTable>
  );
}

function TokenForm({ actor }: { actor: AdminScimTokensActor }) {
  const choices = useSelector(actor, (snapshot) => snapshot.context.choices) as ScimTokenChoices | null;
  return (
    <CollectionForm<ScimTokenDraft> actor={actor} noun="SCIM token"
      wording={{ title: 'New SCIM token', saveLabel: 'Create token', unsaved: 'No token has been made yet.' }}>
      {(draft, fieldErrors, _isSaving, change) => (
        <Select label="Company" value={draft.company_id} errorMessage={fieldErrors.company_id}
          description="The token reaches this company's employees only. It is shown once, when made."
          options={(choices?.companies ?? []).map((company) => ({ id: String(company.id), label: company.name }))}
          onChange={(companyId) => change({ company_id: companyId })} />
      )}
    </CollectionForm>
  );
}
