// Lists the TCP sockets that given processes listen on, from /proc, to prove every listener is on loopback.
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';

export interface Listener {
  pid: number;
  address: string;
  port: number;
}

const LISTEN = '0A';

/** /proc/net/tcp{,6} hex address → text form: IPv4 as dotted quad, IPv6 as 8 hex groups. */
function decodeAddress(hex: string): string {
  if (hex.length === 8)
    return (hex.match(/../g) ?? [])
      .reverse()
      .map((byte) => parseInt(byte, 16))
      .join('.');
  // IPv6 is four little-endian 32-bit words.
  const words = hex.match(/.{8}/g) ?? [];
  const bytes = words.flatMap((word) => (word.match(/../g) ?? []).reverse());
  const groups: string[] = [];
  for (let i = 0; i < bytes.length; i += 2) groups.push(`${bytes[i]}${bytes[i + 1]}`.replace(/^0+(?=.)/, ''));
  return groups.join(':').toLowerCase();
}

function listeningByInode(): Map<string, { address: string; port: number }> {
  const byInode = new Map<string, { address: string; port: number }>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let lines: string[];
    try {
      lines = readFileSync(table, 'utf8').trim().split('\n').slice(1);
    } catch {
      continue;
    }
    for (const line of lines) {
      const fields = line.trim().split(/\s+/);
      const [local, , state] = [fields[1]!, fields[2]!, fields[3]!];
      if (state !== LISTEN) continue;
      const [address, port] = local.split(':') as [string, string];
      byInode.set(fields[9]!, { address: decodeAddress(address), port: parseInt(port, 16) });
    }
  }
  return byInode;
}

export function listeningSockets(pids: number[]): Listener[] {
  const byInode = listeningByInode();
  const found: Listener[] = [];
  for (const pid of pids) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      let link: string;
      try {
        link = readlinkSync(`/proc/${pid}/fd/${fd}`);
      } catch {
        continue;
      }
      const inode = /^socket:\[(\d+)\]$/.exec(link)?.[1];
      const socket = inode ? byInode.get(inode) : undefined;
      if (socket) found.push({ pid, ...socket });
    }
  }
  return found;
}

export function isLoopback(address: string): boolean {
  return address.startsWith('127.') || address === '0:0:0:0:0:0:0:1' || address === '::1';
}
