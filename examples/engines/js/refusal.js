'use strict';
/**
 * A refused request (spec/protocol.md, "Replies that refuse"): kind `illegal` names the
 * rule it breaks (B1); `notation` the field that does not parse; `unsupported` and
 * `bad_request` carry only a message.
 */
class Refusal extends Error {
  constructor(kind, message, extra = {}) {
    super(message);
    this.kind = kind;
    this.extra = extra;
  }

  /** The `error` object of the reply. */
  toError() {
    return { kind: this.kind, ...this.extra, message: this.message };
  }
}

/** An illegal action: the request is well formed but rule `rule` forbids it. */
function illegal(rule, message) {
  return new Refusal('illegal', message, { rule });
}

module.exports = { Refusal, illegal };
