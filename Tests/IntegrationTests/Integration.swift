import Testing

/// Every test that starts processes runs inside this suite, one at a time:
/// a 2-core machine runs one JACK server and one rig well, not five.
@Suite(.serialized) enum Integration {}
