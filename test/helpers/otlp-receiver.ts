/**
 * An OTLP/HTTP receiver on 127.0.0.1, for the telemetry tests: it takes `POST /v1/traces` and
 * `POST /v1/metrics` in the protobuf encoding and decodes them with OpenTelemetry's own proto
 * definitions (test/fixtures/otlp-proto/, read by protobufjs), as a collector would.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { isAbsolute, join } from "node:path";
import protobuf from "protobufjs";
import { FIXTURES } from "./mcpx.js";

const PROTO_DIR = join(FIXTURES, "otlp-proto");

export interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  /** SPAN_KIND_SERVER, SPAN_KIND_CLIENT, … */
  kind: string;
  attributes: Record<string, unknown>;
  status: { code?: string; message?: string };
}

export interface ReceivedPoint {
  metric: string;
  attributes: Record<string, unknown>;
  /** A sum's or gauge's value, or a histogram's count. */
  value: number;
  /** A histogram's sum. */
  sum?: number;
}

interface AnyValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
}

function attributesOf(list: Array<{ key: string; value: AnyValue }> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const { key, value } of list ?? []) {
    out[key] = value.stringValue ?? (value.intValue !== undefined ? Number(value.intValue) : (value.doubleValue ?? value.boolValue));
  }
  return out;
}

export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  /** Every data point of every export, in arrival order (cumulative: the last one of a series is its value). */
  readonly points: ReceivedPoint[] = [];
  readonly #server: Server;
  #url: URL | undefined;

  private constructor(private readonly root: protobuf.Root) {
    this.#server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        const body = Buffer.concat(chunks);
        try {
          if (request.url === "/v1/traces") this.#traces(body);
          else if (request.url === "/v1/metrics") this.#metrics(body);
          else {
            response.writeHead(404).end();
            return;
          }
          response.writeHead(200, { "content-type": "application/x-protobuf" }).end();
        } catch (error) {
          response.writeHead(400).end(String(error));
        }
      });
    });
  }

  static async start(): Promise<OtlpReceiver> {
    const root = new protobuf.Root();
    root.resolvePath = (_origin, target) => (isAbsolute(target) ? target : join(PROTO_DIR, target));
    await root.load(["opentelemetry/proto/collector/trace/v1/trace_service.proto", "opentelemetry/proto/collector/metrics/v1/metrics_service.proto"], {
      keepCase: false,
    });
    const receiver = new OtlpReceiver(root);
    await new Promise<void>((resolve) => receiver.#server.listen(0, "127.0.0.1", () => resolve()));
    const { port } = receiver.#server.address() as AddressInfo;
    receiver.#url = new URL(`http://127.0.0.1:${port}`);
    return receiver;
  }

  /** What OTEL_EXPORTER_OTLP_ENDPOINT should say. */
  get endpoint(): string {
    return this.#url!.href.replace(/\/$/, "");
  }

  #decode(type: string, body: Buffer): Record<string, unknown> {
    const message = this.root.lookupType(type);
    return message.toObject(message.decode(body), { longs: String, enums: String, bytes: String, defaults: false }) as Record<string, unknown>;
  }

  #traces(body: Buffer): void {
    const request = this.#decode("opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest", body) as {
      resourceSpans?: Array<{ resource?: { attributes?: [] }; scopeSpans?: Array<{ spans?: Array<Record<string, unknown>> }> }>;
    };
    for (const resourceSpans of request.resourceSpans ?? []) {
      const service = String(attributesOf(resourceSpans.resource?.attributes)["service.name"]);
      for (const scope of resourceSpans.scopeSpans ?? []) {
        for (const span of scope.spans ?? []) {
          this.spans.push({
            service,
            traceId: hex(span.traceId),
            spanId: hex(span.spanId),
            parentSpanId: hex(span.parentSpanId),
            name: String(span.name),
            kind: String(span.kind),
            attributes: attributesOf(span.attributes as never),
            status: (span.status ?? {}) as ReceivedSpan["status"],
          });
        }
      }
    }
  }

  #metrics(body: Buffer): void {
    const request = this.#decode("opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest", body) as {
      resourceMetrics?: Array<{ scopeMetrics?: Array<{ metrics?: Array<Record<string, { dataPoints?: Array<Record<string, unknown>> } | string>> }> }>;
    };
    for (const resource of request.resourceMetrics ?? []) {
      for (const scope of resource.scopeMetrics ?? []) {
        for (const metric of scope.metrics ?? []) {
          const name = String(metric.name);
          const data = (metric.sum ?? metric.gauge ?? metric.histogram) as { dataPoints?: Array<Record<string, unknown>> } | undefined;
          for (const point of data?.dataPoints ?? []) {
            const value = point.asInt !== undefined ? Number(point.asInt) : point.asDouble !== undefined ? Number(point.asDouble) : Number(point.count ?? 0);
            this.points.push({
              metric: name,
              attributes: attributesOf(point.attributes as never),
              value,
              ...(point.sum !== undefined ? { sum: Number(point.sum) } : {}),
            });
          }
        }
      }
    }
  }

  /** The latest value of the series `metric` with exactly these attributes (cumulative temporality), or undefined. */
  latest(metric: string, attributes: Record<string, unknown>): ReceivedPoint | undefined {
    const key = JSON.stringify(sorted(attributes));
    return this.points.filter((point) => point.metric === metric && JSON.stringify(sorted(point.attributes)) === key).at(-1);
  }

  close(): Promise<void> {
    this.#server.closeAllConnections();
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }
}

function sorted(attributes: Record<string, unknown>): Array<[string, unknown]> {
  return Object.entries(attributes).sort(([a], [b]) => a.localeCompare(b));
}

/** protobufjs gives bytes as base64 (bytes: String); trace and span ids are read as hex. */
function hex(value: unknown): string {
  return typeof value === "string" && value !== "" ? Buffer.from(value, "base64").toString("hex") : "";
}
