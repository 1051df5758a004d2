/**
 * The schemas the OpenAPI document names under `components/schemas`, by name. Every request
 * and response shape registers here once; the document refers to it by `$ref` wherever it
 * is used. (Descriptions live in Zod's global registry, through `.meta()`.)
 */
import * as z from 'zod';

export const components = z.registry<{ id: string }>();
