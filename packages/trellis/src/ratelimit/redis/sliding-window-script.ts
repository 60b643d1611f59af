/**
 * The server-side half of the Redis store: one Lua script that trims, counts, admits and answers in one atomic
 * step, so concurrent callers can never both take the last permit. It keeps the in-process store's window
 * (../sliding-window.ts) in one compact string (docs/rate-limiting.md#key-layout): a header, then a ring of
 * fixed-width records, written in place so Redis never doubles the string as it grows. The newest record lives
 * in the header, so the common admission is a GETRANGE and at most two SETRANGEs, and a refusal writes
 * nothing; anything else (a layout that changed, a value this script did not write) takes the rebuild path
 * (sliding-window-rebuild.ts), which reads the whole value and writes it again.
 *
 * One call answers a batch of acquires, each decided alone and in order; one that fails answers its own error.
 * KEYS: each acquire's counter key. ARGV[1]: how many policies follow; per policy: permitLimit, windowMicros,
 * segments (0 = exact) and the layout's byte, header and record formats (counter-layout.ts). Then one
 * argument with every acquire as `policy,cost,nowMicros;` (policies counted from 1; nowMicros empty for the
 * server's TIME, read once per batch). Reply: the answers in order, separated by `;` (script-codec.ts).
 */
import { luaScript } from './redis-client.js';
import { REBUILD_PATH } from './sliding-window-rebuild.js';

/** Shorthands every path uses. */
const PRELUDE = `
local floor, ceil, pack, unpack, byte = math.floor, math.ceil, struct.pack, struct.unpack, string.byte
local MAGIC = 179
`;

/**
 * One acquire, start of the function: the common paths, a counter of this policy's layout and a new counter.
 * Falls through to the rebuild path, which ends the function. MIN_TTL: a key lives at least this long (ms);
 * with a test clock, whose time has nothing to do with the server's, a minute, so that a slow test run cannot
 * lose a counter to real time passing.
 */
const FAST_PATHS = `
local function acquire(key, limit, windowUs, segments, FMT, HF, RF, cost, nowUs, MIN_TTL)
-- The layout this policy wants (worked out by the client): time unit, widths of a record's time and
-- admissions (0 = exact), of a ring index; header and record struct formats.
local W, K, I = FMT % 8, floor(FMT / 8) % 8, floor(FMT / 64) % 2 + 1
local unit = FMT >= 128 and 1000 or 1
local exact = K == 0
local wu = ceil(windowUs / unit)
local M = 256 ^ W
local H, R = 9 + 2 * W + 3 * I + 2 * K, W + K
local cap, segU = limit, 0
if not exact then cap, segU = segments + 2, windowUs / segments / unit end
local nowHi, nowLo = ceil(nowUs / unit), floor(nowUs / unit)
-- The window in whole seconds: the wait of a request that costs more than the limit.
local WIN = ceil(windowUs / 1000000)

-- The longest header is 41 bytes: reading that many costs no more than reading the exact length.
local hdr = redis.call('GETRANGE', key, '0', '40')
-- An exact admission of several permits writes several records: the rebuild path below does that.
if #hdr >= H and byte(hdr, 1) == MAGIC and byte(hdr, 2) == FMT and (cost == 1 or not exact) then
  local _, N, F, S, C, front, count, backCount, used
  _, _, N, F, S, C, front, count, backCount, used = unpack(HF, hdr)
  F = N - (N - F) % M
  S = N - (N - S) % M
  if exact then used = count end
  -- A clock that went back stands still at the newest admission instead.
  if nowHi < N then nowLo, nowHi = nowLo + N - nowHi, N end
  if N + wu <= nowLo then
    -- Even the newest admission left the window: nothing to read.
    count, used = 0, 0
  elseif F + wu <= nowLo then
    -- The front record left the window: drop records from the front, up to 8 read at a time.
    while true do
      if count == 1 then
        if N + wu <= nowLo then count, used = 0, 0 else F = N end
        break
      end
      local n = count - 1
      if n > 8 then n = 8 end
      if front + n > C then n = C - front end
      local records = redis.call('GETRANGE', key, string.format('%d', H + front * R), string.format('%d', H + (front + n) * R - 1))
      local live = false
      for i = 0, n - 1 do
        local t, c = unpack(RF, records, 1 + i * R)
        t = N - (N - t) % M
        if t + wu > nowLo then
          F, live = t, true
          break
        end
        if exact then used = used - 1 else used = used - c end
        count, front = count - 1, front + 1
        if front == C then front = 0 end
      end
      if live then break end
    end
  end

  if used + cost > limit then
    -- Refused: nothing is written. reset is the wait for the oldest permit, wait the one until cost permits
    -- are free (a request costing more than the limit waits one window and is refused again then).
    local reset, wait = WIN, WIN
    if count > 0 then
      reset = ceil((F + wu - nowLo) * unit / 1000000)
      if reset < 1 then reset = 1 end
      local need = used + cost - limit
      if cost > limit then
        wait = WIN
      elseif need == 1 then
        wait = reset
      else
        -- Walk from the oldest record until enough admissions have left (the limit was lowered, or cost > 1).
        local at, freed = front, 0
        local blocker = N
        for i = 0, count - 2 do
          local t, c = unpack(RF, redis.call('GETRANGE', key, string.format('%d', H + at * R), string.format('%d', H + (at + 1) * R - 1)))
          if exact then c = 1 end
          freed = freed + c
          if freed >= need then
            blocker = N - (N - t) % M
            break
          end
          at = at + 1
          if at == C then at = 0 end
        end
        wait = ceil((blocker + wu - nowLo) * unit / 1000000)
        if wait < 1 then wait = 1 end
      end
    end
    local left = limit - used
    if left < 0 then left = 0 end
    return string.format('-%d,%d,%d', reset, wait, left)
  end

  local moved = floor(nowHi / (wu / 8)) ~= floor(N / (wu / 8))
  local ring = nil
  if count == 0 then
    front, count, F, S, N, backCount = 0, 1, nowHi, nowHi, nowHi, cost
  elseif not exact and (N == nowHi or nowHi - S < segU or count >= segments + 2) then
    backCount, N = backCount + cost, nowHi
    if count == 1 then F = N end
  else
    -- The newest record moves from the header into its ring slot; the new one takes its place.
    local back = front + count - 1
    if back >= C then back = back - C end
    local record = pack(RF, N % M, backCount)
    if count == C then
      -- The ring is full: lay it out oldest first with room for about as many again, written whole below.
      ring = redis.call('GETRANGE', key, string.format('%d', H), string.format('%d', H + C * R - 1))
      ring = string.sub(ring, front * R + 1) .. string.sub(ring, 1, front * R)
      local grown = 2 * (C + 1)
      if grown > cap then grown = cap end
      ring = string.sub(ring, 1, (C - 1) * R) .. record .. string.rep('\\0', (grown - C) * R)
      front, C = 0, grown
    else
      redis.call('SETRANGE', key, string.format('%d', H + back * R), record)
    end
    if exact then
      if nowHi ~= N then S = nowHi end
    else
      S, backCount = nowHi, cost
    end
    count, N = count + 1, nowHi
  end
  used = used + cost
  if S < N - wu then S = N - wu end
  local head = pack(HF, MAGIC, FMT, N, F % M, S % M, C, front, count, backCount, used)
  if ring or moved then
    local g = wu / 8
    local ms = ceil(((floor(N / g) + 9) * g * unit - nowUs) / 1000) + 1
    if ms < MIN_TTL then ms = MIN_TTL end
    if ring then
      redis.call('SET', key, head .. ring, 'PX', string.format('%d', ms))
    else
      redis.call('SETRANGE', key, '0', head)
      redis.call('PEXPIRE', key, string.format('%d', ms))
    end
  else
    redis.call('SETRANGE', key, '0', head)
  end
  local remaining, reset = limit - used, ceil((F + wu - nowLo) * unit / 1000000)
  return string.format('%d,%d', remaining, reset)
end

if #hdr == 0 and cost <= limit and (cost == 1 or not exact) then
  -- A new counter: one record, in the header, and a ring of up to 4 slots.
  local C = cap < 4 and cap or 4
  local g = wu / 8
  local ms = ceil(((floor(nowHi / g) + 9) * g * unit - nowUs) / 1000) + 1
  if ms < MIN_TTL then ms = MIN_TTL end
  redis.call('SET', key, pack(HF, MAGIC, FMT, nowHi, nowHi % M, nowHi % M, C, 0, 1, cost, cost) .. string.rep('\\0', C * R), 'PX', string.format('%d', ms))
  local reset = ceil((nowHi + wu - nowLo) * unit / 1000000)
  return string.format('%d,%d', limit - cost, reset)
end

`;

/** The batch: every acquire in order, each in its own protected call, so one failure is that acquire's alone. */
const BATCH = `
end

local policies = ARGV[1] + 0
local out, serverNow, i = {}, nil, 0
for p, cost, nowUs in string.gmatch(ARGV[2 + 6 * policies], '(%d+),(%d+),(%d*);') do
  p = 2 + 6 * (p - 1)
  local minTtl = 60000
  if nowUs == '' then
    if not serverNow then
      local t = redis.call('TIME')
      serverNow = t[1] * 1000000 + t[2]
    end
    nowUs, minTtl = serverNow, 1000
  else
    nowUs = tonumber(nowUs)
  end
  i = i + 1
  local ok, reply = pcall(acquire, KEYS[i], ARGV[p] + 0, ARGV[p + 1] + 0,
    ARGV[p + 2] + 0, ARGV[p + 3] + 0, ARGV[p + 4], ARGV[p + 5], cost + 0, nowUs, minTtl)
  if ok then
    out[i] = reply
  else
    if type(reply) == 'table' and reply.err then reply = reply.err end
    out[i] = '!' .. string.gsub(tostring(reply), '[\\r\\n;]', ' ')
  end
end
return table.concat(out, ';')
`;

/** The whole script, as Redis runs it. */
export const SLIDING_WINDOW_SCRIPT = luaScript(PRELUDE + FAST_PATHS + REBUILD_PATH + BATCH);
