/** A form post that sends its body only once told to continue (`Expect: 100-continue`), as curl sends a larger one. */
import http from "node:http";

export interface ContinuedPost {
  /** Whether the server said `100 Continue` before it answered. */
  continued: boolean;
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

export function postAfterContinue(url: string, body: string): Promise<ContinuedPost> {
  return new Promise((resolve, reject) => {
    const headers = {
      "Content-Type": "application/x-www-form-urlencoded",
      "Content-Length": String(Buffer.byteLength(body)),
      Expect: "100-continue",
    };
    let continued = false;
    const post = http.request(url, { method: "POST", headers }, (response) => {
      let text = "";
      response.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
      response.on("end", () =>
        resolve({ continued, status: response.statusCode!, headers: response.headers, text }),
      );
    });
    post.on("continue", () => {
      continued = true;
      post.end(body);
    });
    post.on("error", reject);
  });
}
