import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { loadTestSettings } from '../config';
import { queryRows } from '../db/client';
import {
  autosaveCounter,
  checkWithParticipants,
  createServerDatabase,
  httpRequest,
  serverBundleMissing,
  startServer,
  type ServerDatabase,
  type ServerProcess,
} from '../test/server-process';

/**
 * Durability (issue 8, docs/operations.md "Durability"): the built server under autosave load is killed with
 * SIGKILL mid-load, restarted on the same data, and every autosave it had answered 2xx must be there. Each
 * participant writes a strictly increasing counter (in a comment), one request at a time, as a browser does;
 * after the restart each participant's stored counter must be at least the highest one acknowledged (a request
 * in flight at the kill may or may not have landed) and at most the highest one sent. Three kills per run, on
 * the embedded database and, in the PostgreSQL project, on PostgreSQL.
 */
const PARTICIPANTS = 40;
const ROUNDS = 3;
/** 2xx answers per round before the kill. */
const ACKS_BEFORE_KILL = 300;
const SECRET = `durability-${randomBytes(16).toString('hex')}`;

const kind = loadTestSettings().kind;
const missing = serverBundleMissing('the durability test');

type Participant = { participantId: string; cookie: string };
type Tally = { sent: number[]; acked: number[] };

/**
 * Autosave load until `ACKS_BEFORE_KILL` answers of this round, then SIGKILL at a random moment a few
 * milliseconds later, while requests are in flight. Returns the failures seen before the kill.
 */
async function loadThenKill(
  server: ServerProcess,
  options: { healthCheckId: string; componentId: string; participants: Participant[]; tally: Tally },
) {
  const { participants, tally, componentId } = options;
  const target = `${server.url}/api/health-checks/${options.healthCheckId}/responses`;
  const failures: string[] = [];
  let acks = 0;
  let killSent = false;
  let killing: Promise<void> | undefined;
  const killSoon = () => {
    killing ??= new Promise<void>((resolve) => setTimeout(resolve, Math.random() * 20)).then(() => {
      killSent = true;
      return server.kill();
    });
  };
  // If the load cannot reach its count (the server is stuck), kill anyway and say so.
  const watchdog = setTimeout(() => {
    failures.push(`only ${acks} autosaves answered in 20 s`);
    killSoon();
  }, 20_000);

  const worker = async (i: number) => {
    const { cookie } = participants[i] as Participant;
    while (!killSent && failures.length === 0) {
      const counter = (tally.sent[i] = (tally.sent[i] ?? 0) + 1);
      let answer;
      try {
        answer = await httpRequest(target, {
          method: 'PUT',
          headers: { cookie },
          body: {
            votes: { [componentId]: 'healthy' },
            comments: { [componentId]: `autosave ${counter}` },
            last_component_index: 0,
          },
        });
      } catch (error) {
        // After the kill, a refused or cut connection is the point; before it, a failure.
        if (!killSent) failures.push(`participant ${i}: ${String(error)}`);
        return;
      }
      if (answer.status !== 200) {
        if (!killSent) failures.push(`participant ${i}: ${answer.status} ${answer.body}`);
        return;
      }
      // Answered 2xx: acknowledged, even if the answer arrives after the kill was sent.
      tally.acked[i] = counter;
      if (++acks >= ACKS_BEFORE_KILL) killSoon();
    }
  };
  await Promise.all(participants.map((_, i) => worker(i)));
  clearTimeout(watchdog);
  killSoon();
  await killing;
  return { failures, acks };
}

/** Each participant's stored counter, read through the API of the restarted server. */
async function storedCounters(
  server: ServerProcess,
  options: { healthCheckId: string; componentId: string; participants: Participant[] },
) {
  const counters: number[] = [];
  for (const { cookie } of options.participants) {
    const answer = await httpRequest(
      `${server.url}/api/health-checks/${options.healthCheckId}/participation`,
      {
        headers: { cookie },
      },
    );
    expect(answer.status, answer.body).toBe(200);
    const view = JSON.parse(answer.body) as {
      participant: { responses: { comments?: Record<string, string> } | null } | null;
    };
    counters.push(autosaveCounter(view.participant?.responses?.comments?.[options.componentId]));
  }
  return counters;
}

describe.skipIf(missing)(`durability after SIGKILL (${kind})`, () => {
  let database: ServerDatabase | undefined;
  let server: ServerProcess | undefined;

  afterAll(async () => {
    if (server && !server.exited()) await server.kill();
    await database?.drop();
  });

  it('keeps every autosave answered 2xx through kill -9 and restart, and restarts healthy', async () => {
    const data = await createServerDatabase();
    database = data;
    const { check, participants, componentId } = await checkWithParticipants(data, {
      count: PARTICIPANTS,
      secret: SECRET,
    });
    const scope = { healthCheckId: check.healthCheckId, componentId, participants };
    const tally: Tally = { sent: participants.map(() => 0), acked: participants.map(() => 0) };
    const start = () =>
      startServer({ dataDir: data.dataDir, databaseUrl: data.databaseUrl, authSecret: SECRET });

    let stored: number[] = [];
    server = await start();
    for (let round = 1; round <= ROUNDS; round++) {
      const { failures, acks } = await loadThenKill(server, { ...scope, tally });
      expect(failures, server.output()).toEqual([]);
      expect(acks).toBeGreaterThanOrEqual(ACKS_BEFORE_KILL);

      server = await start();
      stored = await storedCounters(server, scope);
      const lost = participants.flatMap((_, i) =>
        (stored[i] ?? 0) < (tally.acked[i] ?? 0)
          ? [`participant ${i}: ${stored[i]} < ${tally.acked[i]}`]
          : [],
      );
      const invented = participants.flatMap((_, i) =>
        (stored[i] ?? 0) > (tally.sent[i] ?? 0) ? [`participant ${i}: ${stored[i]} > ${tally.sent[i]}`] : [],
      );
      expect(lost, 'acknowledged autosaves lost').toEqual([]);
      expect(invented, 'values never sent').toEqual([]);
      const inFlight = participants.filter((_, i) => tally.sent[i] !== tally.acked[i]).length;
      const landed = participants.filter((_, i) => stored[i] !== tally.acked[i]).length;
      console.info(
        `durability (${kind}) round ${round}: ${acks} autosaves acknowledged before SIGKILL; ` +
          `${inFlight} in flight at the kill, ${landed} of them stored; none acknowledged lost`,
      );
    }

    // The restarted server still writes, and stops cleanly.
    const after = await httpRequest(`${server.url}/api/health-checks/${check.healthCheckId}/responses`, {
      method: 'PUT',
      headers: { cookie: participants[0]?.cookie ?? '' },
      body: { votes: {}, comments: { [componentId]: 'after the crashes' }, last_component_index: 0 },
    });
    expect(after.status, after.body).toBe(200);
    expect(await server.stop(), server.output()).toBe(0);

    // And the database says the same as the API did (the participants' rows, read with SQL).
    const reopened = await data.open();
    try {
      const rows = await queryRows<{ id: string; comment: string | null }>(
        reopened.db,
        sql`select id, responses->'comments'->>${componentId} as comment
            from participants where health_check_id = ${check.healthCheckId}`,
      );
      const byId = new Map(rows.map((r) => [r.id, r.comment]));
      expect(byId.get(participants[0]?.participantId ?? '')).toBe('after the crashes');
      participants.slice(1).forEach((p, n) => {
        expect(autosaveCounter(byId.get(p.participantId))).toBe(stored[n + 1]);
      });
    } finally {
      await reopened.close();
    }
  }, 90_000);
});
