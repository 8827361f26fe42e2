import type { Folder } from "../../../contract/folders/schemas.ts";
import type { folders } from "../../db/schema/index.ts";
import { iso } from "../iso.ts";

export function toFolder(row: typeof folders.$inferSelect): Folder {
  return { id: row.id, workspaceId: row.workspaceId, parentId: row.parentId, name: row.name, createdAt: iso(row.createdAt) };
}
