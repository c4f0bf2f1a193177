import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import { draftQuery, readDraft } from './use-autosave';

const USER = 'user-1';
const CHECK = '5b7c2a58-8d3c-4c0e-9a43-0f3f6f1d2e11';
const COMPONENT = '0f8a6b0e-3a52-4f7b-8b1c-2c1d9e0a7b64';
const key = `pulsecheck:draft:${USER}:${CHECK}`;

afterEach(() => window.localStorage.clear());

describe('the stored draft', () => {
  it('is read and checked with the shared schema', async () => {
    const draft = { votes: { [COMPONENT]: 'healthy' }, comments: {}, last_component_index: 0 };
    window.localStorage.setItem(key, JSON.stringify(draft));
    expect(await readDraft(USER, CHECK)).toEqual(draft);
  });

  it('is ignored when it is not a valid draft', async () => {
    window.localStorage.setItem(key, JSON.stringify({ votes: { [COMPONENT]: 'great' } }));
    expect(await readDraft(USER, CHECK)).toBeNull();
    window.localStorage.setItem(key, '{not json');
    expect(await readDraft(USER, CHECK)).toBeNull();
  });

  it('is known at once, without loading anything, when there is none', async () => {
    const client = new QueryClient();
    const options = draftQuery(USER, CHECK);
    expect(typeof options.initialData === 'function' && options.initialData()).toBeNull();
    expect(await client.fetchQuery(options)).toBeNull();
    window.localStorage.setItem(key, JSON.stringify({ votes: {}, comments: {}, last_component_index: 0 }));
    expect(typeof options.initialData === 'function' && options.initialData()).toBeUndefined();
  });
});
