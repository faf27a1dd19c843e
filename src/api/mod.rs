pub mod pb {
    tonic::include_proto!("mancala.v1");
}
