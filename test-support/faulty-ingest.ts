/**
 * Sentry ingest endpoints that misbehave, for fault tests: one that refuses
 * connections, one that accepts and never answers (a black hole), and one
 * that answers slowly. (429 and 500 answers come from the recorder's
 * `respondNext`.) All on 127.0.0.1; `close()` ends every socket.
 */
import { createServer, type Server, type Socket } from "node:net";
import { freePort } from "./free-port";

export interface FaultyIngest {
  dsn: string;
  /** The most connections that were open at once (each pending send holds one). */
  maxOpenConnections(): number;
  /** The connections open now: sends the ingest has not answered. */
  openConnections(): number;
  /** Every connection it has taken, open or ended. */
  acceptedConnections(): number;
  close(): Promise<void>;
}

const dsnFor = (port: number) => `http://public@127.0.0.1:${port}/1`;

/** A port with nothing listening: every connection is refused. */
export async function refusingIngest(): Promise<FaultyIngest> {
  return {
    dsn: dsnFor(await freePort()),
    maxOpenConnections: () => 0,
    openConnections: () => 0,
    acceptedConnections: () => 0,
    close: async () => {},
  };
}

function tcpServer(onSocket: (socket: Socket) => void): Promise<FaultyIngest> {
  const sockets = new Set<Socket>();
  let maxOpen = 0;
  let accepted = 0;
  const server: Server = createServer((socket) => {
    accepted++;
    sockets.add(socket);
    maxOpen = Math.max(maxOpen, sockets.size);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => {});
    onSocket(socket);
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      resolve({
        dsn: dsnFor(port),
        maxOpenConnections: () => maxOpen,
        openConnections: () => sockets.size,
        acceptedConnections: () => accepted,
        close: () =>
          new Promise((done) => {
            for (const socket of sockets) socket.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}

/** Accepts connections, reads everything, never answers. */
export const blackHoleIngest = () => tcpServer((socket) => socket.resume());

/** Answers 200 after `delayMs`. */
export const slowIngest = (delayMs: number) =>
  tcpServer((socket) => {
    socket.resume();
    const timer = setTimeout(() => {
      socket.end(
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}",
      );
    }, delayMs);
    socket.on("close", () => clearTimeout(timer));
  });
