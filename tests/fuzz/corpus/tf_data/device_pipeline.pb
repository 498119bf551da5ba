
Ï	/host:CPUDtf_data_iterator_get_next"d„" Üƒ˜¿ä±…"nğ" Ttf_data_iterator_resource"– " "%– " €‹Ôé”¤ÈT" Üƒ˜¿ä±…"Iterator::Prefetch"PrefetchConsume"PrefetchProduce"%!Iterator::Prefetch::Generator*
id*	parent_id*
element_id