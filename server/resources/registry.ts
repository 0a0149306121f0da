/**
 * What the resource pipeline gets from the areas instead of importing them: each area's public module
 * (server/<area>/index.ts) declares a `ServerArea` — its Fastify plugin, the policies of the resources it rules
 * and the services it lends the pipeline — and server/areas.ts registers them all, once per process, before
 * the first save (buildApp, the seed, a test's fixtures). A resource no area gives a policy gets the generic
 * rules only; a lookup before the areas are registered throws, so a forgotten registration is loud.
 */
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { MasterOption } from '../../lib/protocol';
import type { ResourceName } from '../../lib/resources';
import type { AreaOptions, SessionUser } from '../calls/call-table';
import type { Database } from '../db/schema';
import type { ResourcePolicy } from './policy';

/** The policies of one area, by the resource they rule: a misspelled resource name does not compile. */
export type AreaPolicies = Partial<Record<ResourceName, ResourcePolicy>>;

/** What the pipeline needs from other areas: masters (server/master) and password hashing (server/auth). */
export interface ResourceServices {
  /** Whether a master offers a value now (a `ref` drawn as a select is saved only with one of its choices). */
  masterOffers(db: Kysely<Database>, master: string, value: string | number): Promise<boolean>;
  /** The options of one master table as the caller may see them (a CSV export's labels). */
  masterOptions(db: Kysely<Database>, user: SessionUser, table: string): Promise<MasterOption[]>;
  hashPassword(password: string): Promise<string>;
  verifyPassword(password: string, stored: string): Promise<boolean>;
}

/** One server area as the application is wired from it. */
export interface ServerArea {
  /** Registers its calls; buildApp registers the plugins in the order of server/areas.ts. */
  plugin?: (app: FastifyInstance, options: AreaOptions) => Promise<void>;
  policies?: AreaPolicies;
  services?: Partial<ResourceServices>;
}

const policies = new Map<string, ResourcePolicy>();
const services: Partial<ResourceServices> = {};
let registered = false;

/**
 * Registers the areas' policies and services; registering the same areas again (another app in the same
 * process) changes nothing, two different policies for one resource are refused.
 * @example registerAreas([{ policies: { sales: salesPolicy } }, { services: { hashPassword, verifyPassword } }])
 */
export function registerAreas(areas: readonly ServerArea[]): void {
  for (const area of areas) {
    for (const [name, policy] of Object.entries(area.policies ?? {}) as [ResourceName, ResourcePolicy][]) {
      const known = policies.get(name);
      if (known && known !== policy) throw new Error(`resource ${name} has two policies`);
      policies.set(name, policy);
    }
    for (const [name, service] of Object.entries(area.services ?? {}) as [keyof ResourceServices, ResourceServices[keyof ResourceServices]][]) {
      if (services[name] && services[name] !== service) throw new Error(`resource service ${name} is given twice`);
      Object.assign(services, { [name]: service });
    }
  }
  registered = true;
}

function assertRegistered(): void {
  if (!registered) throw new Error('the server areas are not registered (server/areas.ts registerServerAreas)');
}

/**
 * A resource's policy, or undefined when it has only the generic rules.
 * @example policyOf('sales')?.beforeSave
 */
export function policyOf(name: string): ResourcePolicy | undefined {
  assertRegistered();
  return policies.get(name);
}

/** The resources that have a policy (what a test compares with the expected set). */
export function policyNames(): string[] {
  assertRegistered();
  return [...policies.keys()];
}

/**
 * A service an area lends the pipeline.
 * @example await resourceService('hashPassword')('secret')
 */
export function resourceService<K extends keyof ResourceServices>(name: K): ResourceServices[K] {
  assertRegistered();
  const service = services[name];
  if (!service) throw new Error(`no area gives the resource service ${name}`);
  return service;
}
