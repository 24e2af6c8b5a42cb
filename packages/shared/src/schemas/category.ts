import { z } from 'zod';
import { hasControlCharacter } from '../text.ts';

/** One category as `GET /api/category` lists it. */
export const CategorySummarySchema = z.object({
  _id: z.uuid(),
  name: z.string(),
  slug: z.string(),
  /** URL of the category's icon image. */
  icon: z.string(),
  /** How many of its cars can be booked now. */
  count: z.number().int().nonnegative(),
});
export type CategorySummary = z.infer<typeof CategorySummarySchema>;

export const CategoryListSchema = z.array(CategorySummarySchema);

/**
 * The icons an admin chooses a category's from: the car shapes the seed draws its own with, in a
 * few colours. The server renders the chosen one (seed/car-art.ts) and stores it; `GET
 * /api/categories/icons` lists them with their images.
 */
export const CATEGORY_ICON_SHAPES = { van: 'Van', sedan: 'Saloon', hatch: 'Hatchback' } as const;
export const CATEGORY_ICON_COLOURS = {
  blue: { label: 'blue', hex: '#2563eb' },
  violet: { label: 'violet', hex: '#7c3aed' },
  green: { label: 'green', hex: '#059669' },
  red: { label: 'red', hex: '#dc2626' },
  amber: { label: 'amber', hex: '#d97706' },
  slate: { label: 'grey', hex: '#475569' },
} as const;
type IconShape = keyof typeof CATEGORY_ICON_SHAPES;
type IconColour = keyof typeof CATEGORY_ICON_COLOURS;

export const CATEGORY_ICONS = [
  'van-blue',
  'sedan-violet',
  'hatch-green',
  'van-red',
  'sedan-blue',
  'hatch-amber',
  'van-slate',
  'sedan-red',
  'hatch-blue',
  'van-green',
  'sedan-slate',
  'hatch-violet',
] as const satisfies readonly `${IconShape}-${IconColour}`[];
export type CategoryIcon = (typeof CATEGORY_ICONS)[number];

/** The shape and colour an icon is drawn with, and its name in words ("Van, blue"). */
export function categoryIconArt(icon: CategoryIcon) {
  const [shape, colour] = icon.split('-') as [IconShape, IconColour];
  const { label, hex } = CATEGORY_ICON_COLOURS[colour];
  return { shape, hex, label: `${CATEGORY_ICON_SHAPES[shape]}, ${label}` };
}

export const CategoryIconSchema = z.enum(CATEGORY_ICONS, {
  message: 'Choose an icon from the list',
});

/** The icon a new category gets when none is chosen. */
export const DEFAULT_CATEGORY_ICON: CategoryIcon = 'sedan-slate';

/**
 * Bidirectional controls (embeddings, overrides, isolates, and the left-to-right, right-to-left
 * and Arabic letter marks): removed from a name, as they make it read otherwise than it is stored.
 */
const NAME_BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/g;

/**
 * A category's name as it is kept (decision 044): NFKC (full-width `Ｖａｎｓ` is `Vans`, a
 * ligature its letters), without bidirectional controls, every run of white space one space,
 * trimmed.
 */
export function normalizeCategoryName(name: string): string {
  return name.normalize('NFKC').replace(NAME_BIDI_CONTROLS, '').replace(/\s+/g, ' ').trim();
}

/** What two names are compared by: normalized, then in lower case ("vans" is "Ｖａｎｓ"). */
export function categoryNameKey(name: string): string {
  return normalizeCategoryName(name).toLowerCase();
}

/**
 * A category's name, normalized (above); markup and control characters are refused. Two names
 * with the same `categoryNameKey` are the same name.
 */
export const CategoryNameSchema = z
  .string({ message: 'Name is required' })
  .overwrite(normalizeCategoryName)
  .min(1, 'Name is required')
  .max(40, 'Keep the name under 40 characters')
  .refine((name) => !/[<>]/.test(name), 'A name cannot contain < or >')
  .refine((name) => !hasControlCharacter(name), 'A name cannot contain control characters');

/** `POST /api/categories` (admins). */
export const CreateCategorySchema = z.object({
  name: CategoryNameSchema,
  icon: CategoryIconSchema.optional(),
});
export type CreateCategoryInput = z.infer<typeof CreateCategorySchema>;

/** `PATCH /api/categories/:id` (admins): rename, another icon, or another place in the order. */
export const UpdateCategorySchema = z
  .object({
    name: CategoryNameSchema.optional(),
    icon: CategoryIconSchema.optional(),
    /** Its place in the list, from 0; the others move up or down to make room. */
    position: z
      .number({ message: 'Position must be a number' })
      .int('Position must be a whole number')
      .min(0, 'Position must be 0 or more')
      .optional(),
  })
  .refine(
    (changes) => Object.values(changes).some((value) => value !== undefined),
    'Nothing to change: send a name, an icon or a position',
  );
export type UpdateCategoryInput = z.infer<typeof UpdateCategorySchema>;

/**
 * `DELETE /api/categories/:id` (admins): `moveTo`, another category, which takes its cars (every
 * one, whatever its state); needed when it has any.
 */
export const DeleteCategorySchema = z
  .object({ moveTo: z.uuid({ message: 'Choose a category to move its cars to' }).optional() })
  .nullish();
export type DeleteCategoryInput = z.infer<typeof DeleteCategorySchema>;

export const CreatedCategorySchema = z.object({ _id: z.uuid() });

/** `DELETE /api/categories/:id`: how many cars went to `moveTo`. */
export const DeletedCategorySchema = z.object({
  acknowledged: z.literal(true),
  carsMoved: z.number().int().nonnegative(),
});

/** One category as the admin's Categories page lists it (`GET /api/categories`). */
export const AdminCategorySchema = z.object({
  _id: z.uuid(),
  name: z.string(),
  slug: z.string(),
  icon: z.string(),
  /** The icon of the set it shows, when it was chosen from the set (the seed's are drawn alike). */
  iconName: CategoryIconSchema.nullable(),
  position: z.number().int(),
  /** Its cars in every state (sold, withdrawn and removed ones too): what deleting it moves. */
  cars: z.number().int().nonnegative(),
});
export type AdminCategory = z.infer<typeof AdminCategorySchema>;
export const AdminCategoryListSchema = z.array(AdminCategorySchema);

/** `GET /api/categories/icons`: the set to choose from, each with its image. */
export const CategoryIconListSchema = z.array(
  z.object({ name: CategoryIconSchema, label: z.string(), url: z.string() }),
);
export type CategoryIconOption = z.infer<typeof CategoryIconListSchema>[number];
