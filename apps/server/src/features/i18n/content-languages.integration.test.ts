import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoopDetail } from '@pulsecheck/shared/loops/contract';
import type { TemplateDetail } from '@pulsecheck/shared/templates/schemas';
import { GLOBAL_TEMPLATE_ID } from '../../db/catalogue';
import { translatorFor } from '../../lib/i18n';
import { createAdmin } from '../../test/accounts';
import { createTestContext, type TestContext } from '../../test/harness';
import { launch } from '../../test/health-checks';
import { editable, launchLoop } from '../../test/loops';
import { json } from '../../test/requests';

/**
 * Issue 34, item 1: the catalogue's components, categories, template and loop questions in the reader's language;
 * what people wrote as written. The catalogue's words sent in any language are stored as the catalogue's, so each
 * reader keeps seeing them in their own.
 */

let ctx: TestContext;
let admin: Awaited<ReturnType<typeof createAdmin>>;
const de = translatorFor('de');
const fr = translatorFor('fr');
const es = translatorFor('es');
const en = translatorFor('en');

beforeAll(async () => {
  ctx = await createTestContext();
  admin = await createAdmin(ctx);
});
afterAll(async () => {
  await ctx.close();
});

const read = async <T>(path: string, language?: string) => {
  const response = await ctx.request('GET', path, {
    headers: { ...admin.jar.header(), ...(language ? { 'Accept-Language': language } : {}) },
  });
  expect(response.status).toBe(200);
  return json<T>(response);
};
const template = async (language?: string) =>
  (await read<{ template: TemplateDetail }>(`/api/templates/${GLOBAL_TEMPLATE_ID}`, language)).template;
const loop = async (id: string, language?: string) =>
  (await read<{ loop: LoopDetail }>(`/api/loops/${id}`, language)).loop;

describe('catalogue content in the reader’s language', () => {
  it('shows the global template’s components, categories and examples in German, French or English', async () => {
    const english = await template();
    const german = await template('de-DE,de;q=0.9');
    const french = await template('fr');
    expect(english.components[0]).toMatchObject({
      title: en.t('catalogue.c1.title'),
      category: en.t('catalogue.category.communicate'),
    });
    expect(german.components[0]).toMatchObject({
      key: 'c1',
      title: de.t('catalogue.c1.title'),
      description: de.t('catalogue.c1.description'),
      category: de.t('catalogue.category.communicate'),
      examples: [de.t('catalogue.c1.example1'), de.t('catalogue.c1.example2'), de.t('catalogue.c1.example3')],
    });
    expect(french.title).toBe(fr.t('catalogue.template.title'));
    expect(french.components.map((c) => c.title)).not.toContain(en.t('catalogue.c1.title'));
    expect(german.components).toHaveLength(english.components.length);
  });

  it('stores a check titled with the catalogue’s words in French as the catalogue’s, shown to each reader in theirs', async () => {
    const { id } = await launch(ctx, admin.jar, admin.workspaceId, {
      title: fr.t('catalogue.template.title'),
      description: 'Notre bilan du trimestre',
    });
    type Check = { healthCheck: { title: string; description: string } };
    const english = (await read<Check>(`/api/health-checks/${id}`)).healthCheck;
    const spanish = (await read<Check>(`/api/health-checks/${id}`, 'es')).healthCheck;
    expect(english.title).toBe(en.t('catalogue.template.title'));
    expect(spanish.title).toBe(es.t('catalogue.template.title'));
    // What the admin wrote stays as written, in every language.
    expect(spanish.description).toBe('Notre bilan du trimestre');
  });

  it('stores a loop launched with the catalogue’s questions in German as the catalogue’s; written words stay', async () => {
    const { id } = await launchLoop(ctx, admin.jar, admin.workspaceId, {
      questions: [
        {
          kind: 'scale',
          text: de.t('loopCatalogue.wp1.text'),
          lowLabel: de.t('loopCatalogue.wp1.lowLabel'),
          highLabel: de.t('loopCatalogue.wp1.highLabel'),
        },
        { kind: 'text', text: 'Was sollen wir ändern?' },
      ],
      anonymous: false,
      minResponses: 1,
    });
    const english = await loop(id);
    const spanish = await loop(id, 'es');
    expect(english.questions[0]).toMatchObject({
      text: en.t('loopCatalogue.wp1.text'),
      lowLabel: en.t('loopCatalogue.wp1.lowLabel'),
      highLabel: en.t('loopCatalogue.wp1.highLabel'),
    });
    expect(spanish.questions[0]).toMatchObject({
      text: es.t('loopCatalogue.wp1.text'),
      lowLabel: es.t('loopCatalogue.wp1.lowLabel'),
      highLabel: es.t('loopCatalogue.wp1.highLabel'),
    });
    expect(spanish.questions[1]?.text).toBe('Was sollen wir ändern?');
  });

  it('keeps an edit that changes nothing from retiring the questions it was shown in another language', async () => {
    const { id } = await launchLoop(ctx, admin.jar, admin.workspaceId, {
      questions: [
        {
          kind: 'scale',
          text: en.t('loopCatalogue.wp1.text'),
          lowLabel: en.t('loopCatalogue.wp1.lowLabel'),
          highLabel: en.t('loopCatalogue.wp1.highLabel'),
        },
      ],
      anonymous: false,
      minResponses: 1,
    });
    const before = await loop(id);
    const german = await loop(id, 'de');
    expect(german.questions[0]?.text).toBe(de.t('loopCatalogue.wp1.text'));
    const response = await ctx.request('PUT', `/api/loops/${id}`, {
      body: editable(german),
      headers: { ...admin.jar.header(), 'Accept-Language': 'de' },
    });
    expect(response.status, await response.clone().text()).toBe(200);
    const after = await loop(id);
    expect(after.questions.map((q) => [q.id, q.text])).toEqual(before.questions.map((q) => [q.id, q.text]));
  });
});
