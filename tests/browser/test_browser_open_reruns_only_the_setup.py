"""What a browser context asks its Streamlit server to rerun, read from its websocket: for the browser tests that check
a press reruns one part (an ``st.fragment``) and not the whole page. "Open for the class" rerunning only the control
page's setup part is checked in test_browser_live_room.py, on its class."""

from streamlit.proto.BackMsg_pb2 import BackMsg


def reruns_asked(context):
    """Every rerun the context's pages ask their server for from now on, as (the part's fragment id or "", whether
    its timer asked), in order (a list that grows)."""
    asked = []

    def sent(payload):
        if isinstance(payload, bytes):
            msg = BackMsg()
            msg.ParseFromString(payload)
            if msg.WhichOneof("type") == "rerun_script":
                asked.append((msg.rerun_script.fragment_id, msg.rerun_script.is_auto_rerun))

    context.on("page", lambda page: page.on("websocket", lambda ws: ws.on("framesent", sent)))
    return asked
