import { sharedReads } from '../../api/jobs/shared-reads';

/** A read that answers when told to, counting how often it was started. */
function gatedRead<T>() {
  const started: ((value: T) => void)[] = [];
  const failers: ((err: Error) => void)[] = [];
  return {
    read: () =>
      new Promise<T>((resolve, reject) => {
        started.push(resolve);
        failers.push(reject);
      }),
    started: () => started.length,
    answer: (i: number, value: T) => started[i](value),
    fail: (i: number, err: Error) => failers[i](err),
  };
}

describe('shared reads (request coalescing)', () => {
  test('requests that arrive while a read is in flight get its answer; one arriving after it starts its own', async () => {
    const reads = sharedReads();
    const gate = gatedRead<{ n: number }>();
    const first = reads.read('job-a', gate.read);
    const second = reads.read('job-a', gate.read);
    const other = reads.read('job-b', gate.read); // another key is another read
    expect(gate.started()).toBe(2);
    gate.answer(0, { n: 1 });
    gate.answer(1, { n: 2 });
    expect(await first).toEqual({ n: 1 });
    expect(await second).toBe(await first);
    expect(await other).toEqual({ n: 2 });

    const later = reads.read('job-a', gate.read);
    expect(gate.started()).toBe(3); // nothing is kept once a read has answered
    gate.answer(2, { n: 3 });
    expect(await later).toEqual({ n: 3 });
  });

  test('a failed read fails the requests that shared it, and the next request reads again', async () => {
    const reads = sharedReads();
    const gate = gatedRead<string>();
    const a = reads.read('job-a', gate.read);
    const b = reads.read('job-a', gate.read);
    gate.fail(0, new Error('no such job'));
    await expect(a).rejects.toThrow('no such job');
    await expect(b).rejects.toThrow('no such job');
    const c = reads.read('job-a', gate.read);
    expect(gate.started()).toBe(2);
    gate.answer(1, 'found');
    expect(await c).toBe('found');
  });

  test('after invalidate() a request starts its own read, while the earlier one still answers its own requests', async () => {
    const reads = sharedReads();
    const gate = gatedRead<string>();
    const before = reads.read('job-a', gate.read);
    reads.invalidate(); // this process wrote the job (a cancel): later readers must see the write
    const after = reads.read('job-a', gate.read);
    expect(gate.started()).toBe(2);
    gate.answer(0, 'running');
    expect(await before).toBe('running');
    // The earlier read answering leaves the later one in place: a request now joins the later read.
    const afterToo = reads.read('job-a', gate.read);
    expect(gate.started()).toBe(2);
    gate.answer(1, 'cancelling');
    expect(await after).toBe('cancelling');
    expect(await afterToo).toBe('cancelling');
  });
});
