import jwt, { JwtPayload } from "jsonwebtoken";
import { publicKey } from "../config/keys";

export interface Session {
  sub: string;
  scopes: string[];
}

export function verifySession(token: string): Session {
  const payload = jwt.verify(token, publicKey) as JwtPayload;
  return { sub: payload.sub as string, scopes: (payload.scp ?? "").split(" ") };
}
