import { describe, expect, it } from 'vitest';
import { createSlugger, githubSlug, headingText } from './github-slug';

describe('githubSlug', () => {
  it.each([
    ['Getting started', 'getting-started'],
    ['Keys, modes & tenancy', 'keys-modes--tenancy'],
    ['What `PATCH` does (and why)', 'what-patch-does-and-why'],
    ['snake_case stays', 'snake_case-stays'],
    ['2. Keys — and tokens', '2-keys--and-tokens'],
    ['Café über', 'café-über'],
    ['  Leading space', '--leading-space'],
    ['API: /v1/docs', 'api-v1docs'],
  ])('%s → %s', (heading, slug) => {
    expect(githubSlug(heading)).toBe(slug);
  });
});

describe('createSlugger', () => {
  it('numbers repeats in order: Setup, Setup, Setup → setup, setup-1, setup-2', () => {
    const slug = createSlugger();
    expect([slug('Setup'), slug('Setup'), slug('Setup')]).toEqual(['setup', 'setup-1', 'setup-2']);
  });

  it('skips a number already taken by a heading: "Setup 1" then Setup, Setup → setup-1, setup, setup-2', () => {
    const slug = createSlugger();
    expect([slug('Setup 1'), slug('Setup'), slug('Setup')]).toEqual(['setup-1', 'setup', 'setup-2']);
  });
});

describe('headingText', () => {
  it('keeps code span content and link text; drops HTML tags and emphasis markers', () => {
    expect(headingText('Use `parseInput` with [zod](https://zod.dev)')).toBe('Use parseInput with zod');
    expect(headingText('The <code>engine</code> **in process**')).toBe('The engine in process');
    expect(headingText('_Optional_ settings for snake_case')).toBe('Optional settings for snake_case');
    expect(headingText('Tom &amp; Jerry')).toBe('Tom & Jerry');
  });

  it('gives GitHub’s anchor for a heading with code and a link: `GET /v1/docs` in [Hono](x) → get-v1docs-in-hono', () => {
    expect(githubSlug(headingText('`GET /v1/docs` in [Hono](https://hono.dev)'))).toBe('get-v1docs-in-hono');
  });
});
