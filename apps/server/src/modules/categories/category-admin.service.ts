import {
  categoryNameKey,
  DEFAULT_CATEGORY_ICON,
  type CreateCategoryInput,
  type UpdateCategoryInput,
} from '@carmarket/shared';
import { and, asc, eq, ne, sql } from 'drizzle-orm';
import type { Storage } from '../../adapters/storage.ts';
import { queryRows, type Db, type Tx } from '../../db/client.ts';
import { category, listing } from '../../db/schema.ts';
import { audit } from '../../lib/audit.ts';
import { AppError, conflict, notFound } from '../../lib/errors.ts';
import type { DomainEvents } from '../../lib/events.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { iconUrl } from './category-icons.ts';

/*
 * The admin's changes to the categories. Each runs in one transaction holding one lock for all
 * category changes (they are rare): two admins adding "Vans" at once get one category, and a
 * reorder never interleaves with another.
 */

async function lockCategories(tx: Tx): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended('category-changes', 0))`);
}

/** "Luxury car" -> "luxury-car"; accents dropped; a name of no Latin letters -> "category". */
export function slugOf(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return slug || 'category';
}

/**
 * 409 naming the field when another category has this name, compared normalized and whatever its
 * case (decision 044: `Ｖａｎｓ` is `Vans`). Names kept before normalization are compared so too.
 * Categories are few (an admin makes each): all their names are read.
 */
async function checkNameFree(tx: Tx, name: string, except?: string): Promise<void> {
  const key = categoryNameKey(name);
  const names = await tx
    .select({ id: category.id, name: category.name })
    .from(category)
    .where(except ? ne(category.id, except) : undefined);
  const taken = names.find((row) => categoryNameKey(row.name) === key);
  if (taken) {
    throw new AppError(409, 'conflict', `There is already a category named “${taken.name}”.`, {
      field: 'name',
    });
  }
}

/** The name's slug, or with "-2", "-3"… when another category has it ("Electric-car!"). */
async function freeSlug(tx: Tx, name: string, except?: string): Promise<string> {
  const base = slugOf(name);
  const taken = new Set(
    (
      await tx
        .select({ slug: category.slug })
        .from(category)
        .where(
          and(
            sql`${category.slug} like ${`${base}%`}`,
            except ? ne(category.id, except) : undefined,
          ),
        )
    ).map((row) => row.slug),
  );
  let slug = base;
  for (let n = 2; taken.has(slug); n += 1) slug = `${base}-${n}`;
  return slug;
}

async function lockedCategory(tx: Tx, id: string) {
  const [row] = await tx.select().from(category).where(eq(category.id, id)).for('update');
  if (!row) throw notFound('That category');
  return row;
}

/** Adds a category at the end of the list; its icon rendered and stored as the seed's are. */
export async function addCategory(
  db: Db,
  storage: Storage,
  actor: SessionUser,
  input: CreateCategoryInput,
): Promise<{ id: string }> {
  const iconName = input.icon ?? DEFAULT_CATEGORY_ICON;
  // Outside the transaction: rendering takes a moment and needs no lock.
  const icon = await iconUrl(storage, iconName);
  return db.transaction(async (tx) => {
    await lockCategories(tx);
    await checkNameFree(tx, input.name);
    const [{ next } = { next: 0 }] = await tx
      .select({ next: sql<number>`coalesce(max(${category.position}) + 1, 0)::int` })
      .from(category);
    const [created] = await tx
      .insert(category)
      .values({ name: input.name, slug: await freeSlug(tx, input.name), icon, position: next })
      .returning({ id: category.id });
    await audit(tx, {
      actorId: actor.id,
      action: 'category.add',
      targetType: 'category',
      targetId: created!.id,
      details: { name: input.name, icon: iconName },
    });
    return { id: created!.id };
  });
}

/**
 * Renames a category (its slug follows), gives it another icon, or moves it to `position` in the
 * list (from 0; the others close up around it, and the positions are renumbered 0, 1, 2…).
 */
export async function updateCategory(
  db: Db,
  storage: Storage,
  actor: SessionUser,
  id: string,
  input: UpdateCategoryInput,
): Promise<void> {
  const icon = input.icon ? await iconUrl(storage, input.icon) : undefined;
  await db.transaction(async (tx) => {
    await lockCategories(tx);
    const row = await lockedCategory(tx, id);
    const renamed = input.name !== undefined && input.name !== row.name;
    if (renamed) await checkNameFree(tx, input.name!, id);
    const changes = {
      ...(renamed ? { name: input.name!, slug: await freeSlug(tx, input.name!, id) } : {}),
      ...(icon ? { icon } : {}),
    };
    if (Object.keys(changes).length > 0) {
      await tx.update(category).set(changes).where(eq(category.id, id));
    }
    let moved: { from: number; to: number } | undefined;
    if (input.position !== undefined) moved = await moveTo(tx, id, input.position);
    await audit(tx, {
      actorId: actor.id,
      action: 'category.update',
      targetType: 'category',
      targetId: id,
      details: {
        name: renamed ? input.name : row.name,
        ...(renamed ? { renamedFrom: row.name } : {}),
        ...(input.icon ? { icon: input.icon } : {}),
        ...(moved && moved.from !== moved.to ? { position: moved.to } : {}),
      },
    });
  });
}

/** Puts the category at `position` (past the end: last) and numbers them all from 0 again. */
async function moveTo(tx: Tx, id: string, position: number) {
  const rows = await tx
    .select({ id: category.id, position: category.position })
    .from(category)
    .orderBy(asc(category.position), asc(category.name));
  const order = rows.map((row) => row.id);
  const from = order.indexOf(id);
  order.splice(from, 1);
  const to = Math.min(position, order.length);
  order.splice(to, 0, id);
  // A few dozen categories at most: one small update for each that changes place.
  for (const [n, categoryId] of order.entries()) {
    if (rows.find((row) => row.id === categoryId)?.position === n) continue;
    await tx.update(category).set({ position: n }).where(eq(category.id, categoryId));
  }
  return { from, to };
}

/**
 * Deletes a category. Its cars, in every state (a sold car's record keeps its category), go to
 * `moveTo` first, in the same transaction; with cars and no `moveTo` it stays (409). Searches
 * kept within it follow its cars (the `category.deleted` event).
 */
export async function deleteCategory(
  db: Db,
  events: DomainEvents,
  actor: SessionUser,
  id: string,
  moveToId: string | undefined,
): Promise<{ carsMoved: number }> {
  return db.transaction(async (tx) => {
    await lockCategories(tx);
    const row = await lockedCategory(tx, id);
    if (moveToId === id) {
      throw new AppError(400, 'validation-failed', 'Choose another category to move its cars to.', {
        field: 'moveTo',
      });
    }
    const target = moveToId
      ? (await tx.select().from(category).where(eq(category.id, moveToId)))[0]
      : undefined;
    if (moveToId && !target) {
      throw new AppError(
        400,
        'validation-failed',
        'The category to move its cars to does not exist.',
        {
          field: 'moveTo',
        },
      );
    }
    const [{ cars } = { cars: 0 }] = await queryRows<{ cars: number }>(
      tx,
      sql`select count(*)::int as cars from ${listing} where ${listing.categoryId} = ${id}`,
    );
    if (cars > 0 && !target) {
      throw conflict(
        `${row.name} still has ${cars === 1 ? 'a car' : `${cars} cars`}: choose a category to move ${cars === 1 ? 'it' : 'them'} to.`,
      );
    }
    const carsMoved = target
      ? (
          await tx
            .update(listing)
            .set({ categoryId: target.id })
            .where(eq(listing.categoryId, id))
            .returning({ id: listing.id })
        ).length
      : 0;
    await events.publish(tx, 'category.deleted', { categoryId: id, movedTo: target?.id ?? null });
    await tx.delete(category).where(eq(category.id, id));
    await audit(tx, {
      actorId: actor.id,
      action: 'category.delete',
      targetType: 'category',
      targetId: id,
      details: {
        name: row.name,
        ...(target ? { movedTo: target.name } : {}),
        carsMoved,
      },
    });
    return { carsMoved };
  });
}

/** Every category in display order with its cars in every state, for the admin's page. */
export async function categoriesForAdmin(db: Db) {
  const [rows, counts] = await Promise.all([
    db.select().from(category).orderBy(asc(category.position), asc(category.name)),
    queryRows<{ categoryId: string; cars: number }>(
      db,
      sql`select category_id as "categoryId", count(*)::int as cars from ${listing} group by category_id`,
    ),
  ]);
  const carsOf = new Map(counts.map((row) => [row.categoryId, row.cars]));
  return rows.map((row) => ({ ...row, cars: carsOf.get(row.id) ?? 0 }));
}
