#include "rtl_models/node/node_model.h"

namespace wormcast::rtl {

std::unique_ptr<NodeModel> make_endpoint_node_model();
std::unique_ptr<NodeModel> make_host_ni_node_model();
std::unique_ptr<NodeModel> make_processor_node_model();

NodeModelRegistry& node_model_registry() {
  static NodeModelRegistry registry = [] {
    NodeModelRegistry r("node model");
    r.add("endpoint", "packet source/sink at the link (traffic endpoints)", make_endpoint_node_model);
    r.add("host_ni", "host processor + I/O bus + NI coprocessor over TLM-2.0, message traffic (seed000 §2.3)",
          make_host_ni_node_model);
    r.add("processor", "direct-network processor: t_S/t_R overheads, one-port or all-port link pairs (seed001 §1.4)",
          make_processor_node_model);
    return r;
  }();
  return registry;
}

}  // namespace wormcast::rtl
