import {
  type ServicePolicy,
  type ServicePolicyCreate,
  type ServicePolicyUpdate,
  servicePoliciesResponse,
  servicePolicyResponse,
} from '../contract/servicePolicies.ts';
import { api } from './http.ts';

/** The turnaround targets in the admin area (src/contract/servicePolicies.ts): the default policy first, then each company's. */

export async function listServicePolicies(): Promise<ServicePolicy[]> {
  const client = await api();
  return (await client.get('admin/service_policies').json(servicePoliciesResponse)).policies;
}

export async function createServicePolicy(request: ServicePolicyCreate): Promise<ServicePolicy> {
  const client = await api();
  return (await client.post('admin/service_policies', { json: request }).json(servicePolicyResponse)).policy;
}

export async function updateServicePolicy(policyId: number, request: ServicePolicyUpdate): Promise<ServicePolicy> {
  const client = await api();
  return (await client.patch(`admin/service_policies/${policyId}`, { json: request }).json(servicePolicyResponse)).policy;
}
