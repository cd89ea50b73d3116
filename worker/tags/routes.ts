import { IssueTagInputSchema } from '../../shared/schemas/issue-tag.ts'
import { TAG_MESSAGES, TagInputSchema } from '../../shared/schemas/tag.ts'
import { LOCAL_ACTOR } from '../actor.ts'
import { readJson, readJsonObject, validated } from '../http/read-body.ts'
import { readResourceId } from '../http/resource-id.ts'
import { created, json } from '../http/respond.ts'
import { route, type ApiRequest, type ApiRouter } from '../http/router.ts'
import { scopeOf, withApp } from '../http/with-app.ts'
import { toTimestamp } from '../time.ts'
import type { Deps } from '../deps.ts'
import { changeIssueTag } from './issue-tags.ts'
import { createTag, deleteTag, listTags, updateTag } from './tags.ts'

/** `?api=tags` and `?api=issue-tags` (seed §4.2, §4.3). */
export function registerTagRoutes(router: ApiRouter): void {
  route(
    router,
    '/tags',
    {
      GET: async (request) => json({ data: await listTags(scopeOf(request)) }),
      POST: async (request, deps) => {
        const input = await readJson(request, TagInputSchema, deps.config.maxBodyBytes)
        return created(await createTag(scopeOf(request), input, LOCAL_ACTOR, toTimestamp(deps.now())))
      },
      PUT: update,
      PATCH: update,
      DELETE: async (request, deps) => {
        const body = await readJsonObject(request, deps.config.maxBodyBytes)
        return json(await deleteTag(scopeOf(request), readResourceId(body, request.query, TAG_MESSAGES.invalidId)))
      },
    },
    [withApp],
  )
  route(
    router,
    '/issue-tags',
    {
      POST: async (request, deps) => {
        const input = await readJson(request, IssueTagInputSchema, deps.config.maxBodyBytes)
        const change = { groupId: input.group_id, tagId: input.tag_id, action: input.action }
        return json(await changeIssueTag(scopeOf(request), change, toTimestamp(deps.now())))
      },
    },
    [withApp],
  )
}

async function update(request: ApiRequest, deps: Deps) {
  const body = await readJsonObject(request, deps.config.maxBodyBytes)
  const id = readResourceId(body, request.query, TAG_MESSAGES.invalidId)
  const input = validated(body, TagInputSchema)
  return json(await updateTag(scopeOf(request), id, input, LOCAL_ACTOR, toTimestamp(deps.now())))
}
