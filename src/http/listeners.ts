import { invalid } from "../errors";
import type { Logger } from "../logger";

// The ports serve listens on (decisions §18): without TLS one plain port for everything;
// with TLS the plain port for the certificate page and the HTTPS port for everything else.
// A renewed certificate is served without a restart by replacing the HTTPS listener:
// Bun 1.4.5 cannot swap a running server's certificate (server.reload ignores `tls`, its
// SNI list is fixed at start; oven-sh/bun#43815), so the old listener stops taking
// connections and lets its requests finish while a new one takes the port at once.

type Handler = (request: Request) => Response | Promise<Response>;

export interface ListenerSettings {
  host: string;
  port: number;
  httpsPort: number;
  maxRequestBodySize: number;
  /** The service: on the HTTPS port, or on the plain port when there is no TLS. */
  service: Handler;
  /** With TLS: the certificate and key to serve, and the plain port's own answers (src/http/certificate-port.ts). */
  tls?: { certificate: string; key: string; plain: Handler };
}

type Server = ReturnType<typeof Bun.serve>;

/** A port that cannot be opened, said as what to do about it; anything else as it is. */
function portRefusal(error: unknown, port: number, option: string): unknown {
  const code = (error as { code?: string }).code;
  if (code === "EADDRINUSE") return invalid(`Port ${port} sudah dipakai program lain (mungkin skrining yang sudah berjalan); hentikan program itu atau pilih ${option} lain.`);
  if (code === "EACCES") return invalid(`Port ${port} hanya boleh dibuka oleh administrator sistem; pilih ${option} di atas 1023.`);
  return error;
}

/**
 * A certificate Bun refuses when the server starts (a key type or size its TLS library
 * does not take) is a configuration error like a missing file: one line, exit 1.
 */
function tlsRefusal(error: unknown): unknown {
  const message = error instanceof Error ? error.message : String(error);
  if (/certificate|private key|\bkey\b|pem|ssl|tls/i.test(message)) return invalid(`Sertifikat atau kunci TLS tidak dapat dipakai: ${message.split("\n")[0]}`);
  return error;
}

export class Listeners {
  /** HTTPS listeners replaced by a renewal, still finishing their requests (one of them may be the request that asked for the renewal). */
  private readonly retiring = new Set<Promise<void>>();

  private constructor(
    private readonly settings: ListenerSettings,
    /** The plain port's listener: the whole service without TLS, the certificate page with it. */
    readonly plain: Server,
    private secure: Server | null,
  ) {}

  /**
   * Opens the plain port first, then the HTTPS port: a second skrining on the same ports
   * is refused at the first one, before it takes anything. A refusal closes what was opened.
   */
  static open(settings: ListenerSettings): Listeners {
    let plain: Server;
    try {
      plain = Bun.serve({ hostname: settings.host, port: settings.port, maxRequestBodySize: settings.maxRequestBodySize, fetch: settings.tls?.plain ?? settings.service });
    } catch (error) {
      throw portRefusal(error, settings.port, "--port");
    }
    if (!settings.tls) return new Listeners(settings, plain, null);
    try {
      return new Listeners(settings, plain, Listeners.secureServer(settings, settings.tls));
    } catch (error) {
      void plain.stop(true);
      throw tlsRefusal(portRefusal(error, settings.httpsPort, "--https-port"));
    }
  }

  private static secureServer(settings: ListenerSettings, tls: { certificate: string; key: string }, port = settings.httpsPort): Server {
    return Bun.serve({ hostname: settings.host, port, maxRequestBodySize: settings.maxRequestBodySize, tls: { cert: tls.certificate, key: tls.key }, fetch: settings.service });
  }

  /** The port the service answers on: the HTTPS one with TLS. */
  get servicePort(): number {
    return (this.secure ?? this.plain).port ?? this.settings.port;
  }

  get plainPort(): number {
    return this.plain.port ?? this.settings.port;
  }

  requestAddress(request: Request): string | undefined {
    return (this.secure ?? this.plain).requestIP(request)?.address;
  }

  /**
   * Serves a new certificate: the old HTTPS listener stops taking connections (its requests
   * finish, without being waited for here: the console's "Perbarui sekarang" is one of them),
   * a new one opens on the same port at once (0.3 ms between the two, measured). When the
   * port cannot be taken back, a few tries follow; the log says if all failed.
   */
  async serveCertificate(pair: { certificate: string; key: string }, logger: Logger): Promise<void> {
    const old = this.secure;
    if (!old) return;
    const port = old.port ?? this.settings.httpsPort;
    const finishing = old.stop().finally(() => this.retiring.delete(finishing));
    this.retiring.add(finishing);
    for (let attempt = 1; ; attempt++) {
      try {
        this.secure = Listeners.secureServer(this.settings, pair, port);
        break;
      } catch (error) {
        if (attempt === 20) {
          this.secure = null;
          logger.error(`Port HTTPS ${port} tidak dapat dibuka lagi setelah sertifikat diperbarui (${error instanceof Error ? error.message : String(error)}): mulai ulang skrining.`);
          break;
        }
        await Bun.sleep(50);
      }
    }
  }

  async stop(): Promise<void> {
    await Promise.all([this.plain.stop(), this.secure?.stop(), ...this.retiring]);
  }
}
