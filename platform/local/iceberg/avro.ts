import zlib from 'node:zlib';
import avro from 'avsc';

/** Avro object container files (the manifest list and manifests of an Iceberg snapshot), through avsc. */

/** Encodes records into one container file; `schema` keeps its Iceberg `field-id` attributes in the header. */
export function encodeAvro(schema: object, records: object[], metadata: Record<string, string>): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const meta: Record<string, Buffer> = {};
    for (const [k, v] of Object.entries(metadata)) meta[k] = Buffer.from(v, 'utf8');
    // `metadata` (the header's key/value pairs) is a documented BlockEncoder option its typings leave out.
    const options = { codec: 'null', metadata: meta } as unknown as ConstructorParameters<
      typeof avro.streams.BlockEncoder
    >[1];
    const encoder = new avro.streams.BlockEncoder(schema as avro.Schema, options);
    encoder.on('data', (c: Buffer) => chunks.push(c));
    encoder.on('error', reject);
    encoder.on('end', () => resolve(Buffer.concat(chunks)));
    for (const r of records) encoder.write(r);
    encoder.end();
  });
}

/** Decodes every record of a container file (with the writer's schema). */
export function decodeAvro<T>(data: Buffer): Promise<T[]> {
  return new Promise((resolve, reject) => {
    const out: T[] = [];
    const decoder = new avro.streams.BlockDecoder({
      codecs: {
        null: (buf: Buffer, cb: (err: Error | null, out?: Buffer) => void) => cb(null, buf),
        deflate: (buf: Buffer, cb: (err: Error | null, out?: Buffer) => void) => zlib.inflateRaw(buf, cb),
      },
    });
    decoder.on('data', (r: T) => out.push(r));
    decoder.on('error', reject);
    decoder.on('end', () => resolve(out));
    decoder.end(data);
  });
}
