// A TypeScript client of the Rules service built only from stubs generated from proto/ (protoc-gen-es, with
// @connectrpc/connect for the calls): type-checked by tsc, then run against the real binary. The request is
// built with the generated schema, so a renamed field or message fails the type check before anything runs.
//
//   node out/smoke.js 127.0.0.1:50051
import { create } from "@bufbuild/protobuf";
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { GameKind, Player } from "./gen/mancala/v1/game_pb";
import { IllegalMoveReason, Rules, ValidateMoveRequestSchema } from "./gen/mancala/v1/rules_pb";

function check(condition: boolean, what: string): void {
  if (!condition) {
    throw new Error(`check failed: ${what}`);
  }
}

async function main(address: string): Promise<void> {
  const rules = createClient(Rules, createGrpcTransport({ baseUrl: `http://${address}` }));

  const { state } = await rules.newGame({ kind: GameKind.BA_AWA });
  check(state !== undefined && state.pits.length === 12, "NewGame answers a Ba-awa state of 12 pits");
  check(state!.toMove === Player.SOUTH, "South moves first");

  // S1 (pit 0) is South's: legal. N1 (pit 6) is North's: illegal, with its reason.
  const legal = await rules.validateMove(
    create(ValidateMoveRequestSchema, { state, move: { action: { case: "sow", value: { pit: 0 } } } }),
  );
  check(legal.legal, `S1 is legal (${legal.message})`);
  const illegal = await rules.validateMove(
    create(ValidateMoveRequestSchema, { state, move: { action: { case: "sow", value: { pit: 6 } } } }),
  );
  check(!illegal.legal && illegal.reason === IllegalMoveReason.NOT_YOUR_PIT, "N1 is not South's pit");

  const { state: after } = await rules.applyMove({ state, move: { action: { case: "sow", value: { pit: 0 } } } });
  // BA-1 (docs/ba-awa.md): S1 from the opening leaves [2,7,1,6,1,6 | 6,6,0,1,6,6].
  check(after!.pits.join(",") === "2,7,1,6,1,6,6,6,0,1,6,6", `BA-1 result, got ${after!.pits}`);
  console.log("TypeScript client (protoc-gen-es + connect): NewGame, ValidateMove, ApplyMove ok");
}

main(process.argv[2] ?? "127.0.0.1:50051").catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
