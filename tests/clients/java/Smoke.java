// Java classes generated from proto/ by protoc --java_out (.ci/client-libraries): the file options give one
// class per message in package com.mancala.v1 and file classes named RulesProto, GameProto … (not
// RulesOuterClass), so this compiles only if they do. It builds a ValidateMoveRequest and reads it back.
import com.mancala.v1.GameKind;
import com.mancala.v1.GameState;
import com.mancala.v1.Move;
import com.mancala.v1.RulesProto;
import com.mancala.v1.Sow;
import com.mancala.v1.ValidateMoveRequest;

public final class Smoke {
    public static void main(String[] args) throws Exception {
        GameState.Builder state = GameState.newBuilder().setKind(GameKind.GAME_KIND_BA_AWA);
        for (int pit = 0; pit < 12; pit++) {
            state.addPits(4);
        }
        ValidateMoveRequest request = ValidateMoveRequest.newBuilder()
                .setState(state)
                .setMove(Move.newBuilder().setSow(Sow.newBuilder().setPit(0)))
                .build();
        ValidateMoveRequest back = ValidateMoveRequest.parseFrom(request.toByteArray());
        if (!back.equals(request) || back.getState().getPitsCount() != 12) {
            throw new AssertionError("the request did not survive a round trip: " + back);
        }
        String service = RulesProto.getDescriptor().findServiceByName("Rules").getFullName();
        if (!service.equals("mancala.v1.Rules")) {
            throw new AssertionError("unexpected service " + service);
        }
        System.out.println("Java (protoc --java_out): com.mancala.v1.ValidateMoveRequest built and read back ok");
    }
}
