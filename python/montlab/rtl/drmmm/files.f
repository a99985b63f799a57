common/csa_3to2.v
common/counter63.v
common/csa_tree.v
common/add_sub_sel.v
drmmm/drmmm.v
