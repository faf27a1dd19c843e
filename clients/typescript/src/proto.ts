// The generated code of proto/mancala/v1 (messages, enums, service descriptors) and the google.rpc error details.
export * from "./gen/mancala/v1/game_pb.js";
export * from "./gen/mancala/v1/rules_pb.js";
export * from "./gen/mancala/v1/matches_pb.js";
export * from "./gen/mancala/v1/players_pb.js";
export * from "./gen/mancala/v1/lobby_pb.js";
export * from "./gen/mancala/v1/admin_pb.js";
export * from "./gen/mancala/v1/diagnostics_pb.js";
export * from "./gen/google/rpc/error_details_pb.js";
