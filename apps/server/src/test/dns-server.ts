import dns2 from 'dns2';

const { Packet } = dns2;

type Records = { txt: string[]; a: string[]; aaaa: string[] };

/**
 * A real DNS server (the `dns2` package, over UDP) on a loopback port, answering the TXT, A and AAAA records the
 * test sets; give `server` to the app as DNS_SERVERS. Names without records get an empty answer.
 */
export async function startDnsServer() {
  const zone = new Map<string, Records>();
  const recordsOf = (name: string) => {
    const key = name.toLowerCase().replace(/\.$/, '');
    let records = zone.get(key);
    if (!records) zone.set(key, (records = { txt: [], a: [], aaaa: [] }));
    return records;
  };
  const server = dns2.createUDPServer((request, send) => {
    const response = Packet.createResponseFromRequest(request);
    for (const question of request.questions) {
      const records = zone.get(question.name.toLowerCase());
      if (!records) continue;
      const answer = (record: Partial<dns2.Packet.Resource>) =>
        response.answers.push(Packet.createResourceFromQuestion(question, { ttl: 1, ...record }));
      if (question.type === Packet.TYPE.TXT) for (const data of records.txt) answer({ data });
      if (question.type === Packet.TYPE.A) for (const address of records.a) answer({ address });
      if (question.type === Packet.TYPE.AAAA) for (const address of records.aaaa) answer({ address });
    }
    void send(response);
  });
  await server.listen(0, '127.0.0.1');
  const { port } = server.address();
  return {
    /** The `host:port` for DNS_SERVERS. */
    server: `127.0.0.1:${port}`,
    setTxt(name: string, ...values: string[]) {
      recordsOf(name).txt = values;
    },
    setAddresses(name: string, addresses: { a?: readonly string[]; aaaa?: readonly string[] }) {
      Object.assign(recordsOf(name), { a: [...(addresses.a ?? [])], aaaa: [...(addresses.aaaa ?? [])] });
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type DnsServer = Awaited<ReturnType<typeof startDnsServer>>;
