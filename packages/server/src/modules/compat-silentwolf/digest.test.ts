import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { notePlayerDataDigest, noteScoreDigest, rawJsonField } from './digest.js';

const md5 = (s: string) => createHash('md5').update(s).digest('hex');

/** A request as the digest check sees it: headers, the body's text, and a log to watch. */
function request(raw: string, headers: Record<string, string>) {
  const info = vi.fn();
  const req = {
    headers: { 'x-sw-plugin-version': '0.9.7', ...headers },
    swRawBody: raw,
    game: { id: 'Game0001' },
    routeOptions: { url: '/save_score' },
    log: { info },
  } as unknown as FastifyRequest;
  return { req, info };
}
const signed = (digest: string, tmst = '417') => ({ 'x-sw-act-tmst': tmst, 'x-sw-act-dig': digest });
const MISMATCH = 'a SilentWolf request digest did not match';

describe('SilentWolf request digests', () => {
  it('finds the exact text of a top-level field, skipping strings and nested values', () => {
    const text = '{"a":"x,\\"}","player_data":{"b":[1,{"c":"}"}],"d":2.50},"score" : 12.0 }';
    expect(rawJsonField(text, 'player_data')).toBe('{"b":[1,{"c":"}"}],"d":2.50}');
    expect(rawJsonField(text, 'score')).toBe('12.0');
    expect(rawJsonField(text, 'a')).toBe('"x,\\"}"');
    expect(rawJsonField(text, 'missing')).toBeUndefined();
  });

  it.each([
    ['Godot 4 whole float, body 12.0', '{"player_name":"Wolf","score":12.0}', 12, 'Wolf12.0'],
    ['Godot 4 whole float, body 12', '{"player_name":"Wolf","score":12}', 12, 'Wolf12.0'],
    ['Godot 3 integer', '{"player_name":"Wolf","score":12}', 12, 'Wolf12'],
    ['a fraction', '{"player_name":"Wolf","score":12.5}', 12.5, 'Wolf12.5'],
    ['the name as sent, before normalising', '{"player_name":" Ｗolf ","score":3}', 3, ' Ｗolf 3'],
  ])('accepts a score digest: %s', (_what, raw, score, hashed) => {
    const { req, info } = request(raw, signed(md5(`${hashed}417`)));
    noteScoreDigest(req, 'Wolf', score);
    expect(info).not.toHaveBeenCalled();
  });

  it('logs a mismatch with the game, path and plugin version, and ignores unsigned requests', () => {
    const { req, info } = request('{"player_name":"Wolf","score":12}', signed(md5('Wolf13417')));
    noteScoreDigest(req, 'Wolf', 12);
    expect(info).toHaveBeenCalledWith({ game: 'Game0001', path: '/save_score', pluginVersion: '0.9.7' }, MISMATCH);
    const unsigned = request('{"player_name":"Wolf","score":12}', {});
    noteScoreDigest(unsigned.req, 'Wolf', 12);
    expect(unsigned.info).not.toHaveBeenCalled();
  });

  it('checks player data against the exact JSON text the body carries', () => {
    const raw = '{"game_id":"G","player_data":{"coins":10,"name":"Ü"},"player_name":"Wolf","overwrite":true}';
    const good = request(raw, signed(md5('Wolf{"coins":10,"name":"Ü"}9'), '9'));
    notePlayerDataDigest(good.req, 'Wolf');
    expect(good.info).not.toHaveBeenCalled();
    const bad = request(raw, signed(md5('Wolf{"coins":10,"name":"Ü"}8'), '9'));
    notePlayerDataDigest(bad.req, 'Wolf');
    expect(bad.info).toHaveBeenCalledWith(expect.objectContaining({ game: 'Game0001' }), MISMATCH);
  });
});
