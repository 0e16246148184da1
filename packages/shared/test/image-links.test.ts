import { describe, expect, it } from 'vitest';
import { parseImageLink, profileImageUrlSchema, validationMessages as m } from '../src/index.js';

const ID = '3f1c2a34-5b6d-4e7f-8a9b-0c1d2e3f4a5b';

describe('parseImageLink: a link to one of this server’s images', () => {
  it.each([
    [`/api/images/${ID}`, { id: ID }],
    [`/api/images/${ID.toUpperCase()}`, { id: ID }],
    [`https://tasks.example.com/api/images/${ID}`, { id: ID, host: 'tasks.example.com' }],
    [`HTTP://Tasks.Example.com:8000/api/images/${ID}`, { id: ID, host: 'tasks.example.com:8000' }],
    [`http://localhost:80/api/images/${ID}`, { id: ID, host: 'localhost' }],
    [`http://[::1]:8000/api/images/${ID}`, { id: ID, host: '[::1]:8000' }],
  ])('reads %s', (link, expected) => {
    expect(parseImageLink(link)).toEqual(expected);
  });

  it.each([
    ['another path', '/uploads/me.png'],
    ['a path under ours', `/api/images/${ID}/x`],
    ['a path that climbs', `/api/images/../images/${ID}`],
    ['not a UUID', '/api/images/not-an-id'],
    ['a protocol-relative link', `//evil.example/api/images/${ID}`],
    ['a backslash link', `\\\\evil.example\\api\\images\\${ID}`],
    ['a scheme without slashes', `http:evil.example/api/images/${ID}`],
    ['a query', `https://tasks.example.com/api/images/${ID}?track=1`],
    ['a fragment', `https://tasks.example.com/api/images/${ID}#x`],
    ['credentials', `https://a:b@tasks.example.com/api/images/${ID}`],
    ['javascript:', 'javascript:alert(1)'],
    ['data:', 'data:image/png;base64,AAAA'],
    ['ftp:', `ftp://tasks.example.com/api/images/${ID}`],
    ['a tab the URL parser would drop', `https://tasks.example.com/api/images/\t${ID}`],
    ['a space', ` /api/images/${ID}`],
    ['over 2,048 characters', `https://${'a'.repeat(2048)}.example/api/images/${ID}`],
  ])('refuses %s', (_what, link) => {
    expect(parseImageLink(link)).toBeUndefined();
  });
});

describe('profileImageUrlSchema', () => {
  it('trims, and reads blank and null as no photo', () => {
    expect(profileImageUrlSchema.parse(` /api/images/${ID} `)).toBe(`/api/images/${ID}`);
    expect(profileImageUrlSchema.parse('  ')).toBeNull();
    expect(profileImageUrlSchema.parse(null)).toBeNull();
    expect(profileImageUrlSchema.parse(undefined)).toBeUndefined();
  });

  it('refuses an over-long value by its length, before reading it', () => {
    const result = profileImageUrlSchema.safeParse(`/api/images/${ID}`.padEnd(100_000, 'a'));
    expect(result.success).toBe(false);
    expect(result.error?.issues).toHaveLength(1);
    expect(result.error?.issues[0]?.message).toBe(m.invalidImageUrl);
    expect(result.error?.issues[0]?.code).toBe('too_big');
  });

  it('says what is accepted', () => {
    expect(m.invalidImageUrl).toBe('Profile image must be an image uploaded to this server.');
    expect(profileImageUrlSchema.safeParse(42).error?.issues[0]?.message).toBe(m.invalidImageUrl);
  });
});
