import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AdminCategoryListSchema,
  AuditListSchema,
  CategoryIconListSchema,
  CategoryListSchema,
  CATEGORY_ICONS,
} from '@carmarket/shared';
import { listing, savedSearch } from '../../db/schema.ts';
import { codeOf, errorOf, register, signInAs, TestClient } from '../../test/client.ts';
import { newCar } from '../../test/fixtures.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';

describe('categories an admin runs', () => {
  let app: TestApp;
  let admin: TestClient;
  beforeAll(async () => {
    app = await startTestApp();
    admin = await signInAs(app, 'admin@demo.local');
  });
  afterAll(() => app.close());

  const listed = async () =>
    CategoryListSchema.parse(await (await app.request('/api/category')).json());
  const patch = (id: string, json: unknown) =>
    admin.request(`/api/categories/${id}`, { method: 'PATCH', json });
  const remove = (id: string, json?: unknown) =>
    admin.request(`/api/categories/${id}`, { method: 'DELETE', ...(json ? { json } : {}) });
  async function add(name: string, icon?: string): Promise<string> {
    const response = await admin.post('/api/categories', { name, ...(icon ? { icon } : {}) });
    expect(response.status, await response.clone().text()).toBe(201);
    return ((await response.json()) as { _id: string })._id;
  }

  it('lets only admins change categories: 401 signed out, 403 for buyers and sellers', async () => {
    const [first] = await listed();
    const calls: Array<[string, string, unknown]> = [
      ['GET', '/api/categories', undefined],
      ['POST', '/api/categories', { name: 'Pickup' }],
      ['PATCH', `/api/categories/${first!._id}`, { name: 'Renamed' }],
      ['DELETE', `/api/categories/${first!._id}`, { moveTo: first!._id }],
    ];
    const buyer = await signInAs(app, 'buyer@demo.local');
    const seller = await signInAs(app, 'seller@demo.local');
    for (const [method, path, json] of calls) {
      const init = { method, ...(json ? { json } : {}) };
      expect((await new TestClient(app).request(path, init)).status, path).toBe(401);
      for (const client of [buyer, seller]) {
        const response = await client.request(path, init);
        expect(response.status, `${method} ${path}`).toBe(403);
        expect(await codeOf(response)).toBe('forbidden');
      }
    }
    expect((await listed()).map((c) => c.name)).toEqual(['Microbus', 'Luxury car', 'Electric car']);
  });

  it('adds a category at the end of everyone’s list, with an icon of the set', async () => {
    const icons = CategoryIconListSchema.parse(
      await (await app.request('/api/categories/icons')).json(),
    );
    expect(icons.map((icon) => icon.name)).toEqual(CATEGORY_ICONS);
    const red = icons.find((icon) => icon.name === 'van-red')!;
    expect(red.label).toBe('Van, red');
    const image = await app.request(red.url);
    expect(image.headers.get('content-type')).toBe('image/webp');

    const id = await add('  Pickup truck ', 'van-red');
    const list = await listed();
    expect(list.at(-1)).toEqual({
      _id: id,
      name: 'Pickup truck',
      slug: 'pickup-truck',
      icon: red.url,
      count: 0,
    });
    const mine = AdminCategoryListSchema.parse(await (await admin.get('/api/categories')).json());
    expect(mine.at(-1)).toMatchObject({ _id: id, iconName: 'van-red', position: 3, cars: 0 });

    // A seller can list a car in it at once.
    const car = await newCar(app, { category: 'Pickup truck' });
    expect(car.categoryId).toBe(id);
  });

  it('refuses a duplicate name whatever its case, an empty name and an icon not in the set', async () => {
    // A duplicate conflicts with a category there is (409), about the name (decision 044).
    const duplicate = await admin.post('/api/categories', { name: ' luxury CAR ' });
    expect(duplicate.status).toBe(409);
    expect(await errorOf(duplicate)).toEqual({
      code: 'conflict',
      message: 'There is already a category named “Luxury car”.',
      field: 'name',
    });
    const cases: Array<[unknown, string, string]> = [
      [{ name: '   ' }, 'name', 'Name is required'],
      [{}, 'name', 'Name is required'],
      [{ name: 'Kit car', icon: 'rocket-gold' }, 'icon', 'Choose an icon from the list'],
    ];
    for (const [body, field, message] of cases) {
      const response = await admin.post('/api/categories', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(await errorOf(response)).toEqual({ code: 'validation-failed', message, field });
    }
    const [, luxury] = await listed();
    const renamed = await patch(luxury!._id, { name: 'MICROBUS' });
    expect(renamed.status).toBe(409);
    expect(await errorOf(renamed)).toMatchObject({ field: 'name' });
    expect((await listed()).filter((c) => /microbus/i.test(c.name))).toHaveLength(1);
  });

  it('keeps names normalized: look-alikes are duplicates, bidi controls go, markup is refused', async () => {
    const id = await add('Vans');
    // Full-width letters, a right-to-left override, marks and odd spaces: all the same "Vans".
    for (const name of [
      'Ｖａｎｓ',
      'ＶＡＮＳ',
      '\u202eVans',
      'V\u200ean\u2066s\u2069',
      ' vans\u00a0',
    ]) {
      const response = await admin.post('/api/categories', { name });
      expect(response.status, JSON.stringify(name)).toBe(409);
      expect(await errorOf(response)).toMatchObject({ code: 'conflict', field: 'name' });
      // A rename of another category to it is refused too.
      const [microbus] = await listed();
      expect((await patch(microbus!._id, { name })).status, JSON.stringify(name)).toBe(409);
    }
    // Stored as typed once normalized: white space collapsed, controls gone, NFKC.
    const other = await add('  Ｃａｍｐｅｒ\u202e \t van\u061c  ');
    expect((await listed()).find((c) => c._id === other)).toMatchObject({
      name: 'Camper van',
      slug: 'camper-van',
    });
    for (const name of ['<b>Trucks</b>', 'Trucks >', '＜script＞']) {
      const response = await admin.post('/api/categories', { name });
      expect(response.status, name).toBe(400);
      expect(await errorOf(response)).toEqual({
        code: 'validation-failed',
        message: 'A name cannot contain < or >',
        field: 'name',
      });
      expect((await patch(id, { name })).status).toBe(400);
    }
    const names = (await listed()).map((c) => c.name);
    expect(names.filter((name) => /vans/i.test(name))).toEqual(['Vans']);
    expect(names.some((name) => /[<>\u202e]/.test(name))).toBe(false);
  });

  it('renames a category (its slug follows) and gives it another icon', async () => {
    const id = await add('Roadster');
    expect((await patch(id, { name: 'Convertible', icon: 'hatch-amber' })).status).toBe(200);
    const found = (await listed()).find((c) => c._id === id)!;
    expect(found).toMatchObject({ name: 'Convertible', slug: 'convertible' });
    expect(found.icon).toMatch(/hatch-amber\.webp$/);
    // Same name, another case: a rename of itself is no duplicate.
    expect((await patch(id, { name: 'convertible' })).status).toBe(200);
    expect((await patch(id, {})).status).toBe(400);
  });

  it('reorders: the list answers in the new order', async () => {
    const before = (await listed()).map((c) => c._id);
    const last = before.at(-1)!;
    expect((await patch(last, { position: 0 })).status).toBe(200);
    expect((await listed()).map((c) => c._id)).toEqual([last, ...before.slice(0, -1)]);
    // One step down, as the admin page's Down button asks; past the end is last.
    expect((await patch(last, { position: 1 })).status).toBe(200);
    expect((await listed()).map((c) => c._id)).toEqual([before[0], last, ...before.slice(1, -1)]);
    expect((await patch(last, { position: 99 })).status).toBe(200);
    expect((await listed()).map((c) => c._id)).toEqual(before);
  });

  it('deletes an empty category; one with cars only into another, moving every car', async () => {
    const empty = await add('Hearse');
    expect((await remove(empty)).status).toBe(200);
    expect((await listed()).some((c) => c._id === empty)).toBe(false);
    expect((await remove(empty)).status).toBe(404);

    const id = await add('Camper');
    const onSale = await newCar(app, { category: 'Camper' });
    const withdrawn = await newCar(app, { category: 'Camper' });
    await app.database.db
      .update(listing)
      .set({ status: 'withdrawn' })
      .where(eq(listing.id, withdrawn.id));
    const buyer = await register(app, { role: 'Buyer' });
    const kept = await buyer.post('/api/saved-searches', {
      name: 'Campers',
      query: `category=${id}&make=Toyota`,
      alerts: 'daily',
    });
    expect(kept.status).toBe(200);

    const refused = await remove(id);
    expect(refused.status).toBe(409);
    expect(await errorOf(refused)).toEqual({
      code: 'conflict',
      message: 'Camper still has 2 cars: choose a category to move them to.',
    });
    const itself = await remove(id, { moveTo: id });
    expect(itself.status).toBe(400);
    expect(await errorOf(itself)).toMatchObject({ code: 'validation-failed', field: 'moveTo' });
    const nowhere = await remove(id, { moveTo: '00000000-0000-4000-8000-000000000000' });
    expect(nowhere.status).toBe(400);
    expect(await errorOf(nowhere)).toMatchObject({ field: 'moveTo' });
    expect((await listed()).some((c) => c._id === id)).toBe(true);

    const microbus = (await listed()).find((c) => c.name === 'Microbus')!;
    const deleted = await remove(id, { moveTo: microbus._id });
    expect(deleted.status).toBe(200);
    expect(await deleted.json()).toEqual({ acknowledged: true, carsMoved: 2 });
    const moved = await app.database.db
      .select({ id: listing.id, categoryId: listing.categoryId })
      .from(listing)
      .where(eq(listing.categoryId, microbus._id));
    expect(moved.map((car) => car.id)).toEqual(expect.arrayContaining([onSale.id, withdrawn.id]));
    expect((await listed()).some((c) => c._id === id)).toBe(false);
    // The search kept within it now searches where its cars went.
    const [search] = await app.database.db
      .select()
      .from(savedSearch)
      .where(eq(savedSearch.name, 'Campers'));
    expect(search).toMatchObject({
      categoryId: microbus._id,
      query: `category=${microbus._id}&make=Toyota`,
    });
  });

  it('records every change in the audit log the admin reads', async () => {
    const id = await add('Quad bike', 'hatch-blue');
    await patch(id, { name: 'ATV', position: 0 });
    const electric = (await listed()).find((c) => c.name === 'Electric car')!;
    await remove(id, { moveTo: electric._id });
    const audit = AuditListSchema.parse(await (await admin.get('/api/audit')).json());
    const ours = audit.filter((entry) => entry.targetId === id);
    expect(ours.map((entry) => [entry.action, entry.details])).toEqual([
      ['category.delete', { name: 'ATV', movedTo: 'Electric car', carsMoved: 0 }],
      ['category.update', { name: 'ATV', renamedFrom: 'Quad bike', position: 0 }],
      ['category.add', { name: 'Quad bike', icon: 'hatch-blue' }],
    ]);
    expect(ours.every((entry) => entry.actor?.email === 'admin@demo.local')).toBe(true);
  });
});
